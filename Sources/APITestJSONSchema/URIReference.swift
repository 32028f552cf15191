/// A URI split into its RFC 3986 components, with reference resolution (RFC 3986 §5.2).
///
/// Works for hierarchical URIs (`http:`, `file:`) and for opaque ones such as `urn:` names; only the
/// syntax is handled, nothing is ever fetched.
struct URIReference: Sendable, Hashable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    // MARK: - Parsing

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` into components without validating them.
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        } else {
            query = nil
        }
        scheme = nil
        if let colon = rest.firstIndex(of: ":") {
            let candidate = rest[..<colon]
            if let first = candidate.first, first.isASCII, first.isLetter,
                candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
            {
                scheme = String(candidate)
                rest = rest[rest.index(after: colon)...]
            }
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
            let end = rest[afterSlashes...].firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[afterSlashes..<end])
            rest = rest[end...]
        } else {
            authority = nil
        }
        path = String(rest)
    }

    // MARK: - Output

    /// The URI text (RFC 3986 §5.3 recomposition).
    var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// The URI without its fragment.
    var withoutFragment: URIReference {
        var copy = self
        copy.fragment = nil
        return copy
    }

    // MARK: - Resolution

    /// Resolves `reference` against this URI as a base (RFC 3986 §5.2.2, strict).
    func resolving(_ reference: URIReference) -> URIReference {
        var target = URIReference(scheme: nil, authority: nil, path: "", query: nil, fragment: reference.fragment)
        if let scheme = reference.scheme {
            target.scheme = scheme
            target.authority = reference.authority
            target.path = Self.removeDotSegments(reference.path)
            target.query = reference.query
            return target
        }
        target.scheme = scheme
        if reference.authority != nil {
            target.authority = reference.authority
            target.path = Self.removeDotSegments(reference.path)
            target.query = reference.query
            return target
        }
        target.authority = authority
        if reference.path.isEmpty {
            target.path = path
            target.query = reference.query ?? query
        } else {
            if reference.path.hasPrefix("/") {
                target.path = Self.removeDotSegments(reference.path)
            } else {
                target.path = Self.removeDotSegments(merge(reference.path))
            }
            target.query = reference.query
        }
        return target
    }

    /// Resolves the reference text `reference` against the base text `base`.
    static func resolve(_ reference: String, against base: String) -> String {
        URIReference(base).resolving(URIReference(reference)).text
    }

    private func merge(_ referencePath: String) -> String {
        if authority != nil && path.isEmpty { return "/" + referencePath }
        guard let slash = path.lastIndex(of: "/") else { return referencePath }
        return String(path[...slash]) + referencePath
    }

    static func removeDotSegments(_ input: String) -> String {
        guard input.contains(".") else { return input }
        var segments: [Substring] = []
        let parts = input.split(separator: "/", omittingEmptySubsequences: false)
        let absolute = input.hasPrefix("/")
        for (index, part) in parts.enumerated() {
            if index == 0 && absolute { continue }
            let isLast = index == parts.count - 1
            if part == "." {
                if isLast { segments.append("") }
            } else if part == ".." {
                if !segments.isEmpty { segments.removeLast() }
                if isLast { segments.append("") }
            } else {
                segments.append(part)
            }
        }
        return (absolute ? "/" : "") + segments.joined(separator: "/")
    }
}
