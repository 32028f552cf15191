import APITestSupport

/// What the text of a `$ref` names, read against the file it is in.
enum ReferenceText {
    /// A place the reference names.
    enum Target: Hashable {
        /// A place in a local file (the same file, or one named by a relative or absolute path).
        case location(SpecLocation)
        /// A URL (a scheme, or a network-path reference `//host/...`): never fetched.
        case external
        /// The fragment is not a JSON pointer (a plain-name anchor outside a schema, bad percent-encoding).
        case invalidFragment
    }

    /// The target of `reference` found in the file at `path`.
    static func target(of reference: String, from path: String) -> Target {
        var uriPart = Substring(reference)
        var fragment: Substring?
        if let hash = reference.firstIndex(of: "#") {
            uriPart = reference[..<hash]
            fragment = reference[reference.index(after: hash)...]
        }
        if hasScheme(uriPart) || uriPart.hasPrefix("//") { return .external }
        if let question = uriPart.firstIndex(of: "?") { uriPart = uriPart[..<question] }
        var file = path
        if !uriPart.isEmpty {
            guard let decoded = PercentEncoding.decode(uriPart) else { return .invalidFragment }
            file = FilePaths.absolute(decoded, relativeTo: FilePaths.directory(of: path))
        }
        guard let fragment, !fragment.isEmpty else { return .location(SpecLocation(path: file, pointer: [])) }
        guard let decoded = PercentEncoding.decode(fragment), let tokens = JSONPointerText.tokens(decoded) else {
            return .invalidFragment
        }
        return .location(SpecLocation(path: file, pointer: tokens))
    }

    /// Whether `text` starts with an RFC 3986 scheme (`http:`, `file:`, `urn:`).
    static func hasScheme(_ text: some StringProtocol) -> Bool {
        schemeColon(text.utf8) != nil
    }

    /// The position of the `:` that ends a URI scheme at the start of `bytes` (a letter, then letters, digits,
    /// `+`, `-` or `.`), or nil. Read byte by byte: this runs for every request a contract routes.
    static func schemeColon<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bytes.Index? {
        var index = bytes.startIndex
        guard index != bytes.endIndex, isLetter(bytes[index]) else { return nil }
        index = bytes.index(after: index)
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            guard
                isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return nil }
            index = bytes.index(after: index)
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// The `file:` URI of an absolute path, as schemas are compiled under (`file:///api/openapi.yaml`).
    static func fileURI(_ path: String) -> String {
        "file://" + PercentEncoding.encodePath(path)
    }

    /// The absolute path of a `file:` URI without a host (or with `localhost`); nil for any other URI.
    static func path(ofFileURI uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Substring(uri.dropFirst("file://".count))
        if let end = rest.firstIndex(where: { $0 == "#" || $0 == "?" }) { rest = rest[..<end] }
        if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/"), let decoded = PercentEncoding.decode(rest) else { return nil }
        return decoded
    }
}
