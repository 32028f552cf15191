/// The JSON paths the codec's errors name (`$.user.roles[2]`, `$.labels['a b']`), built as the codec descends.
enum ProtoJSONPath {
    /// The path of the document itself.
    static let root = "$"

    /// `path.name`, or `path['name']` for a name that is not a plain identifier.
    static func member(_ path: String, _ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0) }
            && !("0"..."9").contains(name.unicodeScalars.first!)
        return plain ? "\(path).\(name)" : "\(path)['\(escaped(name))']"
    }

    /// `path[index]`.
    static func index(_ path: String, _ index: Int) -> String { "\(path)[\(index)]" }

    /// `path['key']`, for a map entry.
    static func key(_ path: String, _ key: String) -> String { "\(path)['\(escaped(key))']" }

    private static func escaped(_ name: String) -> String {
        var result = ""
        for character in name {
            if character == "\\" || character == "'" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
