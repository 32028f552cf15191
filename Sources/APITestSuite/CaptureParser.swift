import APITestSupport
import APITestYAML

/// `capture:`: values taken from a response and stored under a name for the later steps of the same test.
enum CaptureParser {
    /// The keys of a capture (and, with the predicates, of a general-form check).
    static let keys = QueryParser.Key.names

    // MARK: - Captures

    /// The captures of `capture:`, each a query with optional filters, stored under its name.
    static func captures(_ node: YAMLNode, in context: SuiteParseContext) -> [CaptureSpec] {
        guard let entries = context.mapping(node, for: "capture") else { return [] }
        var captures: [CaptureSpec] = []
        for entry in entries {
            guard context.checkVariableName(entry.key, at: entry.keyNode, what: "capture") else { continue }
            guard context.isMapping(entry.value), let source = context.mapping(entry.value, for: entry.key) else {
                context.error(
                    "expected a map for capture '\(entry.key)', found \(context.kindName(of: entry.value))",
                    at: entry.value,
                    note: "write {jsonpath: $.path}, {header: Name} or another query, with optional filters")
                continue
            }
            if source.contains(where: { $0.key == "event" }) {
                if let made = EventsParser.capture(
                    name: entry.key, source, at: entry.value, location: context.location(of: entry.keyNode),
                    in: context)
                {
                    captures.append(made)
                }
                continue
            }
            guard
                let (query, used) = QueryParser.parse(
                    source, at: entry.value, for: "capture '\(entry.key)'", in: context)
            else {
                continue
            }
            var filters: [Filter] = []
            var valid = true
            for item in source where !used.contains(item.key) {
                if item.key == QueryParser.Key.filters.rawValue {
                    if let parsed = FilterParser.filters(item.value, in: context) {
                        filters = parsed
                    } else {
                        valid = false
                    }
                } else if Predicate(rawValue: item.key) != nil {
                    context.error(
                        "a capture takes no predicate ('\(item.key)'); check the value in `expect`", at: item.keyNode)
                    valid = false
                } else {
                    context.error(
                        "unknown key '\(item.key)' in capture '\(entry.key)'"
                            + Suggestion.didYouMean(item.key, in: keys),
                        at: item.keyNode)
                    valid = false
                }
            }
            guard valid else { continue }
            captures.append(
                CaptureSpec(
                    name: entry.key, query: query, filters: filters, location: context.location(of: entry.keyNode)))
        }
        return captures
    }
}
