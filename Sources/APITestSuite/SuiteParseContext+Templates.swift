import APITestSupport
import APITestYAML

/// Templates and value trees of the file being parsed, with every placeholder located in the source.
extension SuiteParseContext {
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
        for piece in pieces {
            switch piece {
            case .literal: break
            case .placeholder(_, let offset, let length), .expression(_, _, let offset, let length):
                spans.append((offset, length))
            }
        }
        var locations = text.locate(pieces: spans, in: string, valueStart: start).makeIterator()
        let segments = pieces.map { piece -> Template.Segment in
            switch piece {
            case .literal(let literal):
                return .literal(literal)
            case .placeholder(let name, _, let length):
                return .placeholder(name: name, location: locations.next() ?? start, length: length)
            case .expression(let expression, let source, _, let length):
                return .expression(expression, source: source, location: locations.next() ?? start, length: length)
            }
        }
        let template = Template(source: string, segments: segments, location: start)
        if !template.isLiteral { shared.placeholderTemplateCount += 1 }
        return template
    }

    /// A value tree (a `json:` body, `query`, `form`, a variable, a predicate argument): scalars keep their YAML
    /// types and strings become templates; a number that is not finite (`.inf`, `.nan`, `1e400`) is an error. A tree
    /// nested deeper than `LoadBudget.maximumNesting` (aliases can nest deeper than the text) is reported once,
    /// where the limit is passed.
    func templateValue(_ node: YAMLNode) -> TemplateValue {
        var reportedDepth = false
        return templateValue(node, depth: 1, reportedDepth: &reportedDepth)
    }

    private func templateValue(_ node: YAMLNode, depth: Int, reportedDepth: inout Bool) -> TemplateValue {
        // Aliases share nodes, so a small file can stand for a huge tree ("billion laughs"): cap the expansion.
        shared.valueNodeCount += 1
        guard shared.valueNodeCount <= LoadBudget.maximumValueNodes else {
            if shared.valueNodeCount == LoadBudget.maximumValueNodes + 1 {
                error(
                    "the suite's values are too large (over \(LoadBudget.maximumValueNodes) nodes once aliases are "
                        + "expanded)", at: node)
            }
            return .null
        }
        switch document.kind(of: node) {
        case .scalar:
            // Aliases can also repeat one long scalar: cap the bytes the expansion produces, before reading them.
            shared.valueByteCount += document.byteCount(of: node)
            guard shared.valueByteCount <= LoadBudget.maximumValueBytes else {
                if !shared.reportedValueBytes {
                    shared.reportedValueBytes = true
                    error(
                        "the suite's values are too large (over \(LoadBudget.maximumValueBytes >> 20) MiB of text once "
                            + "aliases are expanded)", at: node)
                }
                return .null
            }
            guard let scalar = scalar(node) else { return .null }
            switch YAMLScalar(scalar) {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .integer(let value): return .integer(value)
            case .double(let value):
                // JSON has no infinity or NaN: a writer would send `null` in their place.
                guard value.isFinite else {
                    error(
                        "'\(scalar.string)' is not a finite number, and JSON has none (no infinity, no NaN)", at: node,
                        note: "quote it to send it as a string")
                    return .null
                }
                return .double(value)
            case .number(let value): return .number(value)
            case .string(let string): return .string(parseTemplate(string, at: node))
            }
        case .sequence, .mapping:
            guard depth < LoadBudget.maximumNesting else {
                if !reportedDepth {
                    reportedDepth = true
                    error("the value is \(LoadBudget.nestingLimitText)", at: node)
                }
                return .null
            }
            if document.kind(of: node) == .sequence {
                return .array(
                    (document.items(of: node) ?? []).map {
                        templateValue($0, depth: depth + 1, reportedDepth: &reportedDepth)
                    })
            }
            let entries = mapping(node, for: "value") ?? []
            return .object(
                entries.map {
                    TemplateValue.Member(
                        key: $0.key, value: templateValue($0.value, depth: depth + 1, reportedDepth: &reportedDepth))
                })
        }
    }
}
