/// The forms of `resolve` and `connectTo` entries, checked when a suite loads (literal entries) and again when a
/// templated one is rendered: one definition of what libcurl accepts.
package enum TransportEntry {
    /// What is wrong with a `resolve` entry (`host:port:address[,address...]`, curl's `--resolve`), or nil.
    package static func resolveProblem(_ entry: String) -> String? {
        let parts = split(entry.hasPrefix("+") ? String(entry.dropFirst()) : entry)
        guard parts.count == 3 else { return "expected host:port:address" }
        if parts[0].isEmpty { return "the host is empty" }
        if let problem = portProblem(parts[1], allowEmpty: false) { return problem }
        let addresses = parts[2].split(separator: ",", omittingEmptySubsequences: false)
        if addresses.contains(where: \.isEmpty) { return "an address is empty" }
        return nil
    }

    /// What is wrong with a `connectTo` entry (`host:port:connect-host:connect-port`, curl's `--connect-to`; an
    /// empty part matches any host or port, or keeps the URL's), or nil.
    package static func connectToProblem(_ entry: String) -> String? {
        let parts = split(entry)
        guard parts.count == 4 else { return "expected host:port:connect-host:connect-port" }
        if let problem = portProblem(parts[1], allowEmpty: true) { return problem }
        if let problem = portProblem(parts[3], allowEmpty: true) { return problem }
        return nil
    }

    /// The parts between colons, an IPv6 address in brackets counting as one part.
    private static func split(_ entry: String) -> [Substring] {
        var parts: [Substring] = []
        var start = entry.startIndex
        var index = entry.startIndex
        var inBrackets = false
        while index < entry.endIndex {
            switch entry[index] {
            case "[": inBrackets = true
            case "]": inBrackets = false
            case ":" where !inBrackets:
                parts.append(entry[start..<index])
                start = entry.index(after: index)
            default: break
            }
            index = entry.index(after: index)
        }
        parts.append(entry[start...])
        return parts
    }

    /// What is wrong with a port, or nil.
    private static func portProblem(_ port: Substring, allowEmpty: Bool) -> String? {
        if port.isEmpty { return allowEmpty ? nil : "the port is empty" }
        guard port.allSatisfy(\.isASCIIDigit), let number = Int(port), (1...65535).contains(number) else {
            return "the port '\(port)' is not a number from 1 to 65535"
        }
        return nil
    }
}

extension Character {
    /// Whether this is 0–9.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
