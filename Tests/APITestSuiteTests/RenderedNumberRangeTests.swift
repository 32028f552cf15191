import APITestJSON
import APITestSupport
import Testing

@testable import APITestSuite

/// A number computed when a step runs that is beyond a double's range (`{{ 1e400 }}`) is an error of the step, as
/// a literal `1e400` is an error at load: it was sent as `1e+400`, which a reader takes as an infinity.
@Suite("Rendered number range")
struct RenderedNumberRangeTests {
    static let here = SourceLocation(file: "s.yaml", line: 4, column: 20)

    /// `{"x": <template>}` rendered with no variables.
    static func render(_ template: String) throws(TemplateError) -> JSONValue {
        let body = TemplateValue.object([
            .init(key: "x", value: .string(try Template(parsing: template, location: here)))
        ])
        return try body.render(TemplateContext())
    }

    @Test(arguments: ["{{ 1e400 }}", "{{ -1e400 }}", "{{ 2e308 }}"])
    func aNumberBeyondADoublesRangeIsAnErrorOfTheStep(_ template: String) {
        #expect(
            throws: TemplateError(
                kind: .evaluation,
                message:
                    "the value holds a number that is not finite (an infinity, NaN, or beyond a double's range "
                    + "such as 1e400), and JSON has none", location: Self.here)
        ) { try Self.render(template) }
    }

    @Test func largeFiniteAndExactNumbersStillRender() throws {
        for template in ["{{ 1e308 }}", "{{ -1.7976931348623157e308 }}", "{{ 12345678901234567891 }}", "{{ 1e-400 }}"] {
            #expect(throws: Never.self) { try Self.render(template) }
        }
        #expect(
            try Self.render("{{ 12345678901234567891 }}")
                == .object(JSONObject([(key: "x", value: .number(JSONNumber(text: "12345678901234567891")!))])))
    }
}
