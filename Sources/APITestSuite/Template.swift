package import APITestJSON
package import APITestSupport
import APITestYAML

/// A string with `{{ name }}` placeholders, parsed once at load time and rendered against a `TemplateContext`.
///
/// Names match `[A-Za-z_][A-Za-z0-9_.-]*`; `env.NAME` names a process environment variable. Whitespace inside
/// the braces is optional. There is no escape for a literal `{{`.
package struct Template: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template: literal text or a placeholder.
    package enum Segment: Sendable, Hashable {
        case literal(String)
        /// A placeholder; `location` points at its opening `{{` and `length` spans it up to the closing `}}`.
        case placeholder(name: String, location: SourceLocation, length: Int)
        /// A placeholder holding an expression (`{{ sha256(body) }}`), `source` its text without the braces; located
        /// as a placeholder is.
        case expression(Expression, source: String, location: SourceLocation, length: Int)
    }

    /// The text as written in the suite.
    package var source: String {
        get { text }
        set {
            // A literal template's one segment is its text: keep the segments it had.
            if parsedSegments == nil { parsedSegments = segments }
            text = newValue
            if let parsedSegments, Self.isText(parsedSegments, newValue) { self.parsedSegments = nil }
        }
    }
    /// The literal texts and placeholders, in order; one literal segment for a template without placeholders (none
    /// when its text is empty).
    package var segments: [Segment] {
        get { parsedSegments ?? (text.isEmpty ? [] : [.literal(text)]) }
        set { parsedSegments = Self.isText(newValue, text) ? nil : newValue }
    }
    /// Where the string starts in the suite.
    package var location: SourceLocation

    /// The text as written.
    private var text: String
    /// The segments, or `nil` when they are the text alone (a literal template): most templates of a suite have no
    /// placeholder, and keeping their one segment would cost an array, with a copy of the text, for each.
    private var parsedSegments: [Segment]?

    /// Creates a template made of one literal text, which renders to itself.
    package init(literal text: String, location: SourceLocation) {
        self.text = text
        self.location = location
    }

    /// Creates a template from already parsed segments.
    package init(source: String, segments: [Segment], location: SourceLocation) {
        self.text = source
        self.parsedSegments = Self.isText(segments, source) ? nil : segments
        self.location = location
    }

    /// True when `segments` are what a literal template of `text` has: one literal segment of it, byte for byte (a
    /// canonically equivalent text is not the same bytes on the wire), or none for an empty text.
    private static func isText(_ segments: [Segment], _ text: String) -> Bool {
        switch segments.count {
        case 0: return text.isEmpty
        case 1:
            if case .literal(let literal) = segments[0] {
                return !text.isEmpty && literal.utf8.elementsEqual(text.utf8)
            }
        default: break
        }
        return false
    }

    /// Parses `text`, placing placeholders relative to `location` (the start of the text on one line).
    ///
    /// For strings whose placeholders are not on the first line, `SuiteLoader` locates them in the source text;
    /// this initializer assumes the text sits on one line starting at `location`.
    package init(parsing text: String, location: SourceLocation) throws(TemplateError) {
        let pieces = try TemplateScanner.scan(text)
        self.text = text
        self.location = location
        self.segments = pieces.map { piece in
            switch piece {
            case .literal(let text):
                return .literal(text)
            case .placeholder(let name, let offset, let length):
                var at = location
                at.column += offset
                return .placeholder(name: name, location: at, length: length)
            case .expression(let expression, let source, let offset, let length):
                var at = location
                at.column += offset
                return .expression(expression, source: source, location: at, length: length)
            }
        }
    }

    // MARK: - Queries

    /// True when the template has no placeholder.
    package var isLiteral: Bool {
        guard let parsedSegments else { return true }
        return parsedSegments.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    /// Whether a placeholder calls a function (`{{ sha256(body) }}`).
    package var callsFunction: Bool {
        guard let parsedSegments else { return false }
        return parsedSegments.contains { segment in
            if case .expression(let expression, _, _, _) = segment { expression.callsFunction } else { false }
        }
    }

    /// The placeholder names in order of appearance, repeats included once.
    package var referencedNames: [String] {
        guard let parsedSegments else { return [] }
        var seen = Set<String>()
        var names: [String] = []
        for segment in parsedSegments {
            switch segment {
            case .literal: break
            case .placeholder(let name, _, _): if seen.insert(name).inserted { names.append(name) }
            case .expression(let expression, _, _, _):
                for name in expression.referencedNames where seen.insert(name).inserted { names.append(name) }
            }
        }
        return names
    }

    /// The name when the whole template is exactly one placeholder (`"{{ id }}"`), which renders to the
    /// variable's typed value where a value is expected.
    package var singlePlaceholderName: String? {
        if let parsedSegments, parsedSegments.count == 1, case .placeholder(let name, _, _) = parsedSegments[0] {
            return name
        }
        return nil
    }

    /// Calls `body` with every placeholder's name, location and length, in order, without building `segments`; an
    /// expression's variables each get its placeholder's location and length.
    package func forEachPlaceholder(_ body: (String, SourceLocation, Int) throws -> Void) rethrows {
        guard let parsedSegments else { return }
        for segment in parsedSegments {
            switch segment {
            case .literal: break
            case .placeholder(let name, let location, let length): try body(name, location, length)
            case .expression(let expression, _, let location, let length):
                for name in expression.referencedNames { try body(name, location, length) }
            }
        }
    }

    package var description: String { source }

    // MARK: - Rendering

    /// Renders to text: strings raw, other values as compact JSON. A text that would pass
    /// `LoadBudget.maximumRenderedBytes` is an error, found before it is built.
    package func render(_ context: TemplateContext) throws(TemplateError) -> String {
        try render(context, encodingSecrets: false)
    }

    /// Renders a request's URL: as ``render(_:)``, except that the text of a placeholder or expression that reads a
    /// secret inside the query (after the URL's first `?`) is percent-encoded, all but RFC 3986's unreserved
    /// characters (letters, digits, `-`, `.`, `_`, `~`).
    ///
    /// A query argument's secret is one value, never URL syntax: written raw, a token `ab&cd+ef` reached the server
    /// as the argument `ab` and an argument named `cd ef`, pieces that no masking finds in what the server echoes
    /// (and a base64 token's `+` became a space). Encoded, the server reads the whole secret back, which masking
    /// hides. Before the query a secret goes in as written: it may be the URL's start (`{{ env.API_URL }}/users`,
    /// every environment value being secret) or a path the user wrote encoded.
    package func renderURL(_ context: TemplateContext) throws(TemplateError) -> String {
        try render(context, encodingSecrets: true)
    }

    private func render(_ context: TemplateContext, encodingSecrets: Bool) throws(TemplateError) -> String {
        guard let parsedSegments else { return self.text }
        var text = ""
        for segment in parsedSegments {
            switch segment {
            case .literal(let literal):
                try Self.append(.string(literal), to: &text, at: location)
            case .placeholder(let name, let location, _):
                let value = try context.value(named: name, at: location)
                if encodingSecrets && context.isSecret(name) && Self.isInQuery(text) {
                    try Self.append(Self.percentEncoded(value), to: &text, at: location)
                } else {
                    try Self.append(value, to: &text, at: location)
                }
            case .expression(let expression, let source, let location, _):
                let value = try expression.evaluate(context, source: source, location: location, undefinedIsNull: false)
                if encodingSecrets && expression.referencedNames.contains(where: context.isSecret)
                    && Self.isInQuery(text)
                {
                    try Self.append(Self.percentEncoded(value), to: &text, at: location)
                } else {
                    try Self.append(value, to: &text, at: location)
                }
            }
        }
        return text
    }

    /// Whether what follows the URL text `rendered` is in its query (or fragment): `rendered` holds a `?`.
    private static func isInQuery(_ rendered: String) -> Bool {
        rendered.utf8.contains(UInt8(ascii: "?"))
    }

    /// `value`'s text with every byte but RFC 3986's unreserved characters percent-encoded (UTF-8, upper-case hex).
    private static func percentEncoded(_ value: JSONValue) -> JSONValue {
        let text = TemplateContext.text(of: value)
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return .string(encoded)
    }

    /// Appends `value` as text (see `TemplateContext.text(of:)`), or fails when the text would pass
    /// `LoadBudget.maximumRenderedBytes`: a value whose elements share storage costs its size as text only here.
    private static func append(
        _ value: JSONValue, to text: inout String, at location: SourceLocation
    ) throws(TemplateError) {
        let room = LoadBudget.maximumRenderedBytes - text.utf8.count
        if case .string(let string) = value {
            guard string.utf8.count <= room else { throw .tooLarge(at: location) }
            text += string
            return
        }
        guard JSONWriter.byteCount(of: value, limit: room) != nil else { throw .tooLarge(at: location) }
        text += JSONWriter.string(value)
    }

    /// The texts of the expressions that compute a value from a secret (`{{ hmacSHA256(env.KEY, body) }}`),
    /// rendered in `context`: secrets themselves, to mask. Expressions that fail give nothing.
    package func derivedSecretTexts(_ context: TemplateContext) -> [String] {
        guard let parsedSegments else { return [] }
        var texts: [String] = []
        for case .expression(let expression, let source, let location, _) in parsedSegments
        where expression.callsFunction && expression.referencedNames.contains(where: context.isSecret) {
            if let value = try? expression.evaluate(context, source: source, location: location, undefinedIsNull: false)
            {
                texts.append(TemplateContext.text(of: value))
            }
        }
        return texts
    }

    /// Renders to a value: a template that is exactly one placeholder gives the variable's typed value (a captured
    /// number stays a number), or the expression's (`{{ length(ids) }}` is a number); any other template gives its
    /// text as a string.
    package func renderValue(_ context: TemplateContext) throws(TemplateError) -> JSONValue {
        if let parsedSegments, parsedSegments.count == 1 {
            switch parsedSegments[0] {
            case .placeholder(let name, let location, _):
                return try context.value(named: name, at: location)
            case .expression(let expression, let source, let location, _):
                return try expression.evaluate(context, source: source, location: location, undefinedIsNull: false)
            case .literal: break
            }
        }
        return .string(try render(context))
    }
}
