/// Resolves URL references against a base URL the way AFHTTPSessionManager does, and percent-encodes what a URL
/// cannot carry.
///
/// The base URL's path always gets a terminal slash first, so `users` under `http://h/api` is `http://h/api/users`;
/// then RFC 3986 §5.2 reference resolution applies (`/users` replaces the whole path, `../x` climbs, an absolute
/// URL stands alone).
public enum URLResolver {
    /// The parts of a URL, per RFC 3986 §3.
    struct Components: Equatable {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?

        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: question)...])
                rest = rest[..<question]
            }
            if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
                scheme = rest[..<colon].lowercased()
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }

        init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            self.query = query
            self.fragment = fragment
        }

        static func isScheme(_ text: Substring) -> Bool {
            guard let first = text.first, first.isASCII, first.isLetter else { return false }
            return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
        }

        var text: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority { result += "//" + authority }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
            return result
        }
    }

    /// Whether `reference` is an absolute `http` or `https` URL with a host.
    public static func isAbsoluteHTTP(_ reference: String) -> Bool {
        let parts = Components(reference)
        return (parts.scheme == "http" || parts.scheme == "https") && !(parts.authority ?? "").isEmpty
    }

    /// Resolves `reference` against `base`, returning an absolute, percent-encoded URL.
    ///
    /// - Throws: `HTTPError(.invalidRequest)` when the result is not an absolute http(s) URL with a host.
    public static func resolve(_ reference: String, against base: String?) throws(HTTPError) -> String {
        let trimmed = reference.trimmingWhitespace()
        let ref = Components(trimmed)
        let target: Components
        if ref.scheme != nil {
            target = Components(
                scheme: ref.scheme, authority: ref.authority, path: removeDotSegments(ref.path), query: ref.query,
                fragment: ref.fragment)
        } else {
            guard let base else {
                throw HTTPError(.invalidRequest, "relative URL '\(reference)' needs a baseURL")
            }
            var baseParts = Components(base.trimmingWhitespace())
            guard baseParts.scheme != nil else {
                throw HTTPError(.invalidRequest, "baseURL '\(base)' is not an absolute URL")
            }
            if !baseParts.path.hasSuffix("/") { baseParts.path += "/" }
            target = resolve(ref, against: baseParts)
        }
        guard target.scheme == "http" || target.scheme == "https" else {
            throw HTTPError(.invalidRequest, "unsupported URL scheme in '\(target.text)': use http or https")
        }
        guard let authority = target.authority, !authority.isEmpty else {
            throw HTTPError(.invalidRequest, "URL '\(target.text)' has no host")
        }
        var result = target
        if result.path.isEmpty { result.path = "/" }
        result.fragment = nil
        return percentEncodeInvalidCharacters(result.text)
    }

    /// Appends an encoded query string to `url`, after any query it already has.
    public static func appendingQuery(_ query: String, to url: String) -> String {
        guard !query.isEmpty else { return url }
        var parts = Components(url)
        if let existing = parts.query, !existing.isEmpty {
            parts.query = existing + "&" + query
        } else {
            parts.query = query
        }
        return parts.text
    }

    // MARK: - RFC 3986 §5.2

    static func resolve(_ ref: Components, against base: Components) -> Components {
        var target = Components(scheme: base.scheme, authority: nil, path: "", query: nil, fragment: ref.fragment)
        if ref.authority != nil {
            target.authority = ref.authority
            target.path = removeDotSegments(ref.path)
            target.query = ref.query
            return target
        }
        target.authority = base.authority
        if ref.path.isEmpty {
            target.path = base.path
            target.query = ref.query ?? base.query
        } else {
            if ref.path.hasPrefix("/") {
                target.path = removeDotSegments(ref.path)
            } else {
                let merged: String
                if base.authority != nil && base.path.isEmpty {
                    merged = "/" + ref.path
                } else if let slash = base.path.lastIndex(of: "/") {
                    merged = base.path[...slash] + ref.path
                } else {
                    merged = ref.path
                }
                target.path = removeDotSegments(merged)
            }
            target.query = ref.query
        }
        return target
    }

    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        var result = ""
        // Segment-wise form of the RFC's algorithm.
        let absolute = input.hasPrefix("/")
        if absolute { input = input.dropFirst() }
        let segments = input.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        result = output.joined(separator: "/")
        return absolute ? "/" + result : result
    }

    // MARK: - Encoding

    /// Percent-encodes bytes a URL cannot carry (spaces, controls, non-ASCII, `"<>\^`{|}`), keeping existing
    /// escapes and every reserved character as it is.
    public static func percentEncodeInvalidCharacters(_ url: String) -> String {
        if url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !invalidASCII.contains($0) }) { return url }
        var result = ""
        result.reserveCapacity(url.utf8.count)
        for byte in url.utf8 {
            if byte > 0x20 && byte < 0x7F && !invalidASCII.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += PercentEncoding.escape(byte)
            }
        }
        return result
    }

    private static let invalidASCII: Set<UInt8> = Set("\"<>\\^`{|}".utf8)
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
