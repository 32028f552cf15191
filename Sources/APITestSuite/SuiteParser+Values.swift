import APITestJSON
import APITestSupport

// MARK: - Scalars

extension SuiteParser {
    /// The text of a scalar for a text field: strings as written, numbers and booleans as written in the source.
    /// Reports null, maps and lists.
    func text(_ node: YAMLNode, for name: String) -> String? {
        guard let scalar = scalar(node), !YAMLScalar.isNull(scalar) else {
            typeError(expected: "a string", for: name, found: node)
            return nil
        }
        return scalar.string
    }

    /// A boolean (`true`/`false`).
    func bool(_ node: YAMLNode, for name: String) -> Bool? {
        guard let scalar = scalar(node), case .bool(let value) = YAMLScalar(scalar) else {
            typeError(expected: "true or false", for: name, found: node)
            return nil
        }
        return value
    }

    /// An integer in `range`.
    func integer(_ node: YAMLNode, for name: String, in range: ClosedRange<Int>) -> Int? {
        guard let scalar = scalar(node), case .integer(let value) = YAMLScalar(scalar) else {
            typeError(expected: "a whole number", for: name, found: node)
            return nil
        }
        guard let int = Int(exactly: value), range.contains(int) else {
            error("'\(name)' must be between \(range.lowerBound) and \(range.upperBound), found \(value)", at: node)
            return nil
        }
        return int
    }

    /// A size in bytes: a whole number of bytes, or text with a unit (`200MB`, `64MiB`); `0` is allowed.
    func byteSize(_ node: YAMLNode, for name: String) -> Int? {
        let expected = "a size (a number of bytes, or like 200MB or 64MiB)"
        guard let scalar = scalar(node) else {
            typeError(expected: expected, for: name, found: node)
            return nil
        }
        switch YAMLScalar(scalar) {
        case .integer(let value):
            guard value >= 0, let bytes = Int(exactly: value) else {
                error("'\(name)' cannot be negative, found \(value)", at: node)
                return nil
            }
            return bytes
        case .string(let text):
            do {
                return try ByteSize(parsing: text).bytes
            } catch {
                self.error("\(error.message) for '\(name)'", at: node)
                return nil
            }
        case .number:
            error("'\(name)' is too large, found \(scalar.string)", at: node)
            return nil
        case .double, .null, .bool:
            typeError(expected: expected, for: name, found: node)
            return nil
        }
    }

    /// A positive duration: `250ms`, `10s`, `1.5s`, `2m`, `1h`, or a bare number of seconds.
    func duration(_ node: YAMLNode, for name: String) -> Duration? {
        guard let scalar = scalar(node) else {
            typeError(expected: "a duration (like 10s)", for: name, found: node)
            return nil
        }
        let parsed: Duration
        do {
            switch YAMLScalar(scalar) {
            case .integer(let seconds): parsed = try DurationParser.duration(fromSeconds: Double(seconds))
            case .double(let seconds): parsed = try DurationParser.duration(fromSeconds: seconds)
            case .number(let seconds): parsed = try DurationParser.duration(fromSeconds: seconds.doubleValue)
            case .string(let text): parsed = try DurationParser.parse(text)
            case .null, .bool:
                typeError(expected: "a duration (like 10s)", for: name, found: node)
                return nil
            }
        } catch {
            self.error("\(error.message) for '\(name)'", at: node)
            return nil
        }
        guard parsed > .zero else {
            error("'\(name)' must be longer than zero", at: node)
            return nil
        }
        return parsed
    }

    /// A name for a variable or capture: `[A-Za-z_][A-Za-z0-9_.-]*`, not starting with `env.`.
    func checkVariableName(_ name: String, at node: YAMLNode, what: String) -> Bool {
        if !TemplateScanner.isValidName(name) {
            error("invalid \(what) name '\(name)'; names match [A-Za-z_][A-Za-z0-9_.-]*", at: node)
            return false
        }
        if name.hasPrefix(TemplateScanner.environmentPrefix) {
            error("\(what) names cannot start with 'env.', which names environment variables", at: node)
            return false
        }
        return true
    }
}

// MARK: - Templates

extension SuiteParser {
    /// A template from a text field (see `text(_:for:)`).
    func template(_ node: YAMLNode, for name: String) -> Template? {
        guard let scalar = scalar(node) else {
            typeError(expected: "a string", for: name, found: node)
            return nil
        }
        switch YAMLScalar(scalar) {
        case .null:
            typeError(expected: "a string", for: name, found: node)
            return nil
        case .string:
            return parseTemplate(scalar.string, at: node)
        case .bool, .integer, .double, .number:
            return Template(literal: scalar.string, location: location(of: node))
        }
    }

    /// Parses a string found at `node`, locating each placeholder in the source. A syntax error is reported and
    /// the text kept as a literal.
    func parseTemplate(_ string: String, at node: YAMLNode) -> Template {
        let start = location(of: node)
        if !TemplateScanner.mayHavePlaceholders(string) {
            return Template(literal: string, location: start)
        }
        let pieces: [TemplateScanner.Piece]
        do {
            pieces = try TemplateScanner.scan(string)
        } catch {
            if case .syntax(let offset, let length) = error.kind {
                let at = text.locate(pieceAt: offset, length: length, in: string, valueStart: start)
                self.error(error.message, at: at, length: length)
            } else {
                self.error(error.message, at: node)
            }
            return Template(literal: string, location: start)
        }
        // All placeholders of the string are located in one pass over it.
        var spans: [(offset: Int, length: Int)] = []
        for case .placeholder(_, let offset, let length) in pieces { spans.append((offset, length)) }
        var locations = text.locate(pieces: spans, in: string, valueStart: start).makeIterator()
        let segments = pieces.map { piece -> Template.Segment in
            switch piece {
            case .literal(let literal):
                return .literal(literal)
            case .placeholder(let name, _, let length):
                return .placeholder(name: name, location: locations.next() ?? start, length: length)
            }
        }
        return Template(source: string, segments: segments, location: start)
    }

    /// A value tree (a `json:` body, `query`, `form`, a variable, a predicate argument): scalars keep their YAML
    /// types and strings become templates.
    func templateValue(_ node: YAMLNode) -> TemplateValue {
        // Aliases share nodes, so a small file can stand for a huge tree ("billion laughs"): cap the expansion.
        context.valueNodeCount += 1
        guard context.valueNodeCount <= SuiteParseContext.maximumValueNodes else {
            if context.valueNodeCount == SuiteParseContext.maximumValueNodes + 1 {
                error(
                    "the suite's values are too large (over \(SuiteParseContext.maximumValueNodes) nodes once aliases are expanded)",
                    at: node)
            }
            return .null
        }
        switch document.kind(of: node) {
        case .scalar:
            guard let scalar = scalar(node) else { return .null }
            // Aliases can also repeat one long scalar: cap the bytes the expansion produces, before reading them.
            context.valueByteCount += scalar.string.utf8.count
            guard context.valueByteCount <= SuiteParseContext.maximumValueBytes else {
                if !context.reportedValueBytes {
                    context.reportedValueBytes = true
                    error(
                        "the suite's values are too large (over \(SuiteParseContext.maximumValueBytes / (1 << 20)) MiB of text once "
                            + "aliases are expanded)", at: node)
                }
                return .null
            }
            switch YAMLScalar(scalar) {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .integer(let value): return .integer(value)
            case .double(let value): return .double(value)
            case .number(let value): return .number(value)
            case .string(let string): return .string(parseTemplate(string, at: node))
            }
        case .sequence:
            return .array((document.items(of: node) ?? []).map(templateValue))
        case .mapping:
            let entries = mapping(node, for: "value") ?? []
            return .object(entries.map { TemplateValue.Member(key: $0.key, value: templateValue($0.value)) })
        }
    }
}
