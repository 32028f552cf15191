// MARK: - Node locations

/// How the evaluator tracks where a node is: not at all (``NoLocation``) or as a normalized path.
protocol NodeLocation {
    func appending(name: String) -> Self
    func appending(index: Int) -> Self
}

/// No location: `JSONPath.query` pays nothing for paths it does not report.
struct NoLocation: NodeLocation {
    func appending(name: String) -> NoLocation { self }
    func appending(index: Int) -> NoLocation { self }
}

/// A location as a chain of path components shared between nodes, spelled out only at the end.
struct LinkedLocation: NodeLocation {
    private final class Link {
        let parent: Link?
        let name: String?
        let index: Int

        init(parent: Link?, name: String?, index: Int) {
            self.parent = parent
            self.name = name
            self.index = index
        }
    }

    private var last: Link?

    init() {}

    private init(last: Link) {
        self.last = last
    }

    func appending(name: String) -> LinkedLocation {
        LinkedLocation(last: Link(parent: last, name: name, index: 0))
    }

    func appending(index: Int) -> LinkedLocation {
        LinkedLocation(last: Link(parent: last, name: nil, index: index))
    }

    /// The RFC 9535 §2.7 normalized path, such as `$['store']['book'][0]`.
    var normalizedPath: String {
        var links: [Link] = []
        var link = last
        while let current = link {
            links.append(current)
            link = current.parent
        }
        var path = "$"
        for link in links.reversed() {
            if let name = link.name {
                path += "['" + JSONPath.escapedMemberName(name) + "']"
            } else {
                path += "[\(link.index)]"
            }
        }
        return path
    }

}

extension JSONPath {
    /// A member name escaped for a normalized path (RFC 9535 §2.7): `\b \f \n \r \t \' \\`, other controls as
    /// `\u00xx`, so that no name breaks the line a path is shown on.
    package static func escapedMemberName(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "'": result += "\\'"
            case "\\": result += "\\\\"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
