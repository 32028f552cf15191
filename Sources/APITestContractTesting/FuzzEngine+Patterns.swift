import APITestJSON

// MARK: - Patterns the generator does not follow

extension FuzzEngine {
    /// The most patterns the summary names.
    static let shownPatterns = 10

    /// The `pattern`s of the document's root file that ``PatternSampler`` cannot sample, each once, in document
    /// order (at most ``shownPatterns``).
    package func unsupportedPatterns() -> [String] {
        guard let document else { return [] }
        var found: [String] = []
        var seen: Set<String> = []
        var stack: [(JSONValue, Int)] = [(document, 0)]
        while let (value, depth) = stack.popLast(), found.count < Self.shownPatterns {
            switch value {
            case .object(let object):
                if let pattern = object["pattern"]?.stringValue, !seen.contains(pattern) {
                    seen.insert(pattern)
                    if PatternSampler(pattern) == nil { found.append(pattern) }
                }
                guard depth < 64 else { continue }
                for (_, member) in object.reversed() { stack.append((member, depth + 1)) }
            case .array(let items):
                guard depth < 64 else { continue }
                for item in items.reversed() { stack.append((item, depth + 1)) }
            default:
                continue
            }
        }
        return found
    }
}
