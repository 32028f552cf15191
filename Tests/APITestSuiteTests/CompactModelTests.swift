import APITestJSON
import APITestSupport
import Testing

@testable import APITestSuite

/// The loaded model keeps what most tests leave out small: a literal template keeps no segment array, and the
/// optional settings of a request, its expectations' schema and a step's retry are `@Boxed`. Neither may show:
/// values read, compare, hash and change as before.
@Suite struct CompactModelTests {
    let here = SourceLocation(file: "f.yaml", line: 2, column: 5)

    // MARK: - Literal templates

    @Test func aLiteralTemplateHasItsTextAsItsOneSegment() throws {
        let literal = Template(literal: "items/1", location: here)
        #expect(literal.segments == [.literal("items/1")])
        #expect(literal.isLiteral)
        #expect(literal.referencedNames.isEmpty)
        #expect(literal.singlePlaceholderName == nil)
        #expect(try literal.render(TemplateContext()) == "items/1")
        #expect(try literal.renderValue(TemplateContext()) == .string("items/1"))
        #expect(Template(literal: "", location: here).segments.isEmpty)

        // However it is made, a literal template is the same value.
        let parsed = try Template(parsing: "items/1", location: here)
        let built = Template(source: "items/1", segments: [.literal("items/1")], location: here)
        #expect(parsed == literal)
        #expect(built == literal)
        #expect(Set([literal, parsed, built]).count == 1)
        #expect(literal != Template(literal: "items/2", location: here))
        #expect(literal != Template(literal: "items/1", location: SourceLocation(file: "g.yaml", line: 2, column: 5)))
    }

    @Test func segmentsOtherThanTheTextAreKept() throws {
        // Segments that are not the text alone (as `init(source:segments:location:)` allows) are kept as given.
        let split = Template(source: "ab", segments: [.literal("a"), .literal("b")], location: here)
        #expect(split.segments == [.literal("a"), .literal("b")])
        #expect(split.isLiteral)
        #expect(split != Template(literal: "ab", location: here))
        // A segment canonically equal to the text but not the same bytes renders as itself.
        let composed = Template(source: "e\u{301}", segments: [.literal("\u{e9}")], location: here)
        #expect(Array(try composed.render(TemplateContext()).utf8) == Array("\u{e9}".utf8))
        let emptyLiteral = Template(source: "", segments: [.literal("")], location: here)
        #expect(emptyLiteral.segments == [.literal("")])
        #expect(emptyLiteral != Template(literal: "", location: here))
        let placeholder = Template.Segment.placeholder(name: "id", location: here, length: 8)
        let withName = Template(source: "{{ id }}", segments: [placeholder], location: here)
        #expect(withName.singlePlaceholderName == "id")
        var context = TemplateContext()
        context.set("id", .integer(7), secret: false)
        #expect(try withName.render(context) == "7")
    }

    @Test func changingTheSourceOrSegmentsOfALiteralTemplate() throws {
        // `source` and `segments` are set independently, as the stored properties they were.
        var template = Template(literal: "a", location: here)
        template.source = "b"
        #expect(template.source == "b")
        #expect(template.segments == [.literal("a")])
        #expect(try template.render(TemplateContext()) == "a")
        template.source = "a"
        #expect(template == Template(literal: "a", location: here))

        template.segments = [.literal("c")]
        #expect(template.source == "a")
        #expect(try template.render(TemplateContext()) == "c")
        template.segments = [.literal("a")]
        #expect(template == Template(literal: "a", location: here))
    }

    // MARK: - Boxed settings

    static func request() -> RequestSpec {
        let here = SourceLocation(file: "f.yaml", line: 1, column: 1)
        return RequestSpec(
            method: "POST", url: Template(literal: "u", location: here),
            auth: .basic(
                AuthSpec.CredentialsSpec(
                    user: Template(literal: "user", location: here), password: Template(literal: "pw", location: here))),
            body: .raw(Template(literal: "text", location: here)),
            contentType: Template(literal: "text/plain", location: here), timeout: .seconds(3), maxRedirects: 2,
            location: here)
    }

    /// The basic credentials of `request`, if it has them.
    static func basic(_ request: RequestSpec) -> AuthSpec.CredentialsSpec? {
        if case .basic(let credentials)? = request.auth { credentials } else { nil }
    }

    @Test func boxedSettingsReadAndChangeAsValues() {
        let original = Self.request()
        #expect(Self.basic(original)?.user.source == "user")
        #expect(original.contentType?.source == "text/plain")
        #expect(original.timeout == .seconds(3))
        #expect(original.maxRedirects == 2)
        guard case .raw(let text) = original.body else {
            Issue.record("not a raw body: \(String(describing: original.body))")
            return
        }
        #expect(text.source == "text")

        var copy = original
        var credentials = Self.basic(copy)
        credentials?.password.source = "other"
        copy.auth = credentials.map(AuthSpec.basic)
        copy.timeout = nil
        copy.maxRedirects? += 1
        copy.body = nil
        #expect(Self.basic(original)?.password.source == "pw")
        #expect(original.timeout == .seconds(3))
        #expect(original.maxRedirects == 2)
        #expect(original.body != nil)
        #expect(Self.basic(copy)?.password.source == "other")
        #expect(copy.timeout == nil)
        #expect(copy.maxRedirects == 3)
        #expect(copy.body == nil)
        #expect(copy != original)
    }

    @Test func boxedSettingsCompareAndHashByValue() {
        let first = Self.request()
        let second = Self.request() // Equal settings in other boxes.
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        var changed = second
        changed.contentType = Template(literal: "text/csv", location: first.location)
        #expect(changed != first)
        changed.contentType = first.contentType
        #expect(changed == first)
        #expect(changed.hashValue == first.hashValue)

        let boxed = Boxed(wrappedValue: 1)
        #expect(boxed == Boxed(wrappedValue: 1))
        #expect(boxed != Boxed(wrappedValue: 2))
        #expect(boxed != Boxed(wrappedValue: nil))
        #expect(Boxed<Int>(wrappedValue: nil) == Boxed(wrappedValue: nil))
        #expect(Set([boxed, Boxed(wrappedValue: 1), Boxed(wrappedValue: 2)]).count == 2)
    }

    @Test func aStepsRetryAndAnExpectationsSchemaAreBoxed() throws {
        let suite = try loadSuite(
            """
            baseURL: http://h/
            tests:
              - name: t
                request: {url: a}
                retry: {attempts: 3, interval: 10ms, until: {status: 204}}
            """)
        var step = try #require(suite.tests.first?.steps.first)
        let original = step
        #expect(step.retry?.attempts == 3)
        #expect(step.retry?.until?.status?.description == "204")
        #expect(step.expect.schema == nil)
        step.retry?.attempts = 5
        step.retry?.until = nil
        #expect(step.retry?.attempts == 5)
        #expect(step.retry?.until == nil)
        #expect(original.retry?.attempts == 3)
        #expect(original.retry?.until?.status?.description == "204")
        #expect(step != original)
        step.retry = original.retry
        #expect(step == original)
        #expect(step.hashValue == original.hashValue)
    }
}
