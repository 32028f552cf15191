package import APITestJSON
import APITestSupport
import APITestYAML

/// A YAML/JSON-like value whose strings are templates: a `json:` body, `query` and `form` values, predicate
/// arguments and suite variables.
///
/// A string that is exactly one placeholder renders to the variable's typed value; other strings render as text.
package indirect enum TemplateValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// A number that neither `Int64` nor `Double` holds exactly, kept as written (see `JSONNumber`).
    case number(JSONNumber)
    case string(Template)
    case array([TemplateValue])
    case object([Member])

    /// One member of an object, in document order.
    package struct Member: Sendable, Hashable {
        package var key: String
        package var value: TemplateValue

        package init(key: String, value: TemplateValue) {
            self.key = key
            self.value = value
        }
    }

    // MARK: - Queries

    /// The names of every placeholder in the value, in document order, each once.
    package var referencedNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        for template in templates {
            for name in template.referencedNames where seen.insert(name).inserted {
                names.append(name)
            }
        }
        return names
    }

    /// Every template in the value, in document order.
    package var templates: [Template] {
        switch self {
        case .null, .bool, .integer, .double, .number: return []
        case .string(let template): return [template]
        case .array, .object:
            var templates: [Template] = []
            forEachTemplate { templates.append($0) }
            return templates
        }
    }

    /// Calls `body` with every template in the value, in document order, without collecting them in an array.
    package func forEachTemplate(_ body: (Template) throws -> Void) rethrows {
        switch self {
        case .null, .bool, .integer, .double, .number: return
        case .string(let template): try body(template)
        case .array(let items): for item in items { try item.forEachTemplate(body) }
        case .object(let members): for member in members { try member.value.forEachTemplate(body) }
        }
    }

    /// True when the value holds no placeholder.
    package var isLiteral: Bool { templates.allSatisfy(\.isLiteral) }

    /// The members, for an object.
    package var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A short name for the kind of value, for messages: `null`, `boolean`, `number`, `string`, `list`, `map`.
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .double, .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "a map"
        }
    }

    // MARK: - Rendering

    /// Renders to JSON, replacing placeholders; strings that are exactly one placeholder keep the value's type. A
    /// value whose JSON text would pass `LoadBudget.maximumRenderedBytes` is an error (variables made of variables
    /// share their elements, so the value is small in memory however large its text): it fails here, where the
    /// work is bounded, not where the value is written. So is a value holding a number JSON cannot hold (an
    /// infinity or NaN computed by an expression, which would be written as `null`, or `{{ 1e400 }}`, beyond a
    /// double's range, which a reader would take as an infinity), as a literal `1e400` is an error at load.
    package func render(_ context: TemplateContext) throws(TemplateError) -> JSONValue {
        let value = try renderTree(context)
        switch JSONWriter.extent(of: value, limit: LoadBudget.maximumRenderedBytes) {
        case .bytes: return value
        case .tooLarge: throw .tooLarge(at: firstLocation)
        case .nonFinite:
            throw TemplateError(
                kind: .evaluation,
                message:
                    "the value holds a number that is not finite (an infinity, NaN, or beyond a double's range "
                    + "such as 1e400), and JSON has none",
                location: firstLocation)
        }
    }

    /// Where the value's first template is written.
    private var firstLocation: SourceLocation? {
        var location: SourceLocation?
        forEachTemplate { template in if location == nil { location = template.location } }
        return location
    }

    private func renderTree(_ context: TemplateContext) throws(TemplateError) -> JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .integer(let value): return .integer(value)
        case .double(let value): return .double(value)
        case .number(let value): return .number(value)
        case .string(let template): return try template.renderValue(context)
        case .array(let items):
            var values: [JSONValue] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try item.renderTree(context)) }
            return .array(values)
        case .object(let members):
            var object: [JSONObject.Member] = []
            object.reserveCapacity(members.count)
            for member in members { object.append((key: member.key, value: try member.value.renderTree(context))) }
            return .object(JSONObject(object))
        }
    }
}
