import APITestSupport

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

        /// Splits `text` on its delimiters in one pass over its UTF-8 bytes (every delimiter is ASCII, so each part
        /// is whole UTF-8): the first `#` starts the fragment, the first `?` before it the query, a scheme ends at
        /// the first `:` before those when no `/` comes first, and `//` after it starts the authority.
        init(_ text: String) {
            self = text.withUTF8Bytes(Self.init(bytes:))
        }

        /// The parts of the URL whose UTF-8 bytes are `bytes` (``init(_:)``).
        private init(bytes: UnsafeBufferPointer<UInt8>) {
            var end = bytes.count
            var question: Int?
            var colonOrSlash: Int?
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "#") {
                    end = index
                    break
                }
                guard question == nil else { continue }
                if byte == UInt8(ascii: "?") {
                    question = index
                } else if colonOrSlash == nil, byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") {
                    colonOrSlash = index
                }
            }
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            fragment = end < bytes.count ? string(end + 1..<bytes.count) : nil
            if let question {
                query = string(question + 1..<end)
                end = question
            } else {
                query = nil
            }
            var start = 0
            if let colon = colonOrSlash, bytes[colon] == UInt8(ascii: ":"),
                Self.isScheme(UnsafeBufferPointer(rebasing: bytes[..<colon]))
            {
                scheme = string(0..<colon).lowercased()
                start = colon + 1
            } else {
                scheme = nil
            }
            if end - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
                let authorityStart = start + 2
                let authorityEnd = bytes[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
                authority = string(authorityStart..<authorityEnd)
                start = authorityEnd
            } else {
                authority = nil
            }
            path = string(start..<end)
        }

        init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            self.query = query
            self.fragment = fragment
        }

        static func isScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = bytes.first, isLetter(first) else { return false }
            return bytes.allSatisfy {
                isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
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

    /// A base URL with what the resolution of a plain relative path needs of it, found once for all the requests
    /// made against it (``RequestSerializer`` keeps one).
    struct Base: Sendable {
        /// The base URL as given.
        let text: String
        /// `text` with a terminal slash when it is a plain http(s) URL (``plainBase(_:)``), else `nil`.
        let plainPrefix: String?
        /// Whether every byte of `plainPrefix` is one a URL carries unencoded.
        let prefixIsEncoded: Bool
        /// The parts of `text` as the general resolution reads them (``baseParts(_:)``); `nil` without a scheme.
        let parts: Components?
        /// `scheme://authority` of `parts` when they are an http(s) URL with a host, else `nil`: what an absolute
        /// path (`/users`) resolves to the end of.
        let origin: String?
        /// Whether every byte of `origin` is one a URL carries unencoded.
        let originIsEncoded: Bool

        /// The facts of `text`.
        init(_ text: String) {
            self.text = text
            plainPrefix = URLResolver.plainBase(text)
            prefixIsEncoded = plainPrefix?.withUTF8Bytes { $0.allSatisfy(URLResolver.isValidURLByte) } ?? false
            parts = URLResolver.baseParts(text)
            if let parts, let scheme = parts.scheme, scheme == "http" || scheme == "https",
                let authority = parts.authority, !authority.isEmpty
            {
                origin = scheme + "://" + authority
            } else {
                origin = nil
            }
            originIsEncoded = origin?.withUTF8Bytes { $0.allSatisfy(URLResolver.isValidURLByte) } ?? false
        }
    }

    /// Resolves `reference` against `base`, returning an absolute, percent-encoded URL.
    ///
    /// - Throws: `HTTPError` with reason `.invalidRequest` when the result is not an absolute http(s) URL with a host.
    public static func resolve(_ reference: String, against base: String?) throws(HTTPError) -> String {
        try resolve(reference, againstBase: base.map(Base.init))
    }

    /// Resolves `reference` against `base`, as ``resolve(_:against:)`` does.
    static func resolve(_ reference: String, againstBase base: Base?) throws(HTTPError) -> String {
        let trimmed = reference.trimmingWhitespace()
        if let base {
            // Fast path for the common case, a plain relative path under a plain http(s) base (same result as the
            // general resolution).
            if let prefix = base.plainPrefix {
                switch plainRelativePath(trimmed) {
                case .encoded where base.prefixIsEncoded: return prefix + trimmed
                case .encoded, .toEncode: return percentEncodeInvalidCharacters(prefix + trimmed)
                case .none: break
                }
            }
            // Fast path for an absolute path (`/users/1?x=1`) under an http(s) base: its origin and the path as it
            // is (same result as the general resolution).
            if let origin = base.origin {
                switch absolutePath(trimmed) {
                case .encoded where base.originIsEncoded: return origin + trimmed
                case .encoded, .toEncode: return percentEncodeInvalidCharacters(origin + trimmed)
                case .none: break
                }
            }
        }
        // Fast path for an absolute http(s) URL as it is sent (same result as the general resolution).
        switch plainAbsoluteURL(trimmed) {
        case .encoded: return trimmed
        case .toEncode: return percentEncodeInvalidCharacters(trimmed)
        case .none: break
        }
        return try resolveGenerally(trimmed, reference: reference, base: base?.text, baseParts: base?.parts)
    }

    /// RFC 3986 §5.2 resolution of `trimmed` (`reference` without surrounding whitespace) against `base`, whose
    /// parts are `baseParts` (``baseParts(_:)``): what ``resolve(_:againstBase:)``'s fast paths must agree with.
    static func resolveGenerally(
        _ trimmed: String, reference: String, base: String?, baseParts: Components?
    ) throws(HTTPError) -> String {
        let ref = Components(trimmed)
        let target: Components
        if ref.scheme != nil {
            target = Components(
                scheme: ref.scheme, authority: ref.authority, path: removeDotSegments(ref.path), query: ref.query,
                fragment: ref.fragment)
        } else {
            guard let base else {
                throw HTTPError(.relativeURLWithoutBase(reference: reference))
            }
            guard let baseParts else {
                throw HTTPError(.baseURLNotAbsolute(base: base))
            }
            target = resolve(ref, against: baseParts)
        }
        guard target.scheme == "http" || target.scheme == "https" else {
            throw HTTPError(.unsupportedScheme(url: target.text))
        }
        guard let authority = target.authority, !authority.isEmpty else {
            throw HTTPError(.missingHost(url: target.text))
        }
        var result = target
        if result.path.isEmpty { result.path = "/" }
        result.fragment = nil
        return percentEncodeInvalidCharacters(result.text)
    }

    /// A non-empty relative path without scheme, query, fragment, leading slash or dot segments.
    static func isPlainRelativePath(_ reference: String) -> Bool {
        plainRelativePath(reference) != nil
    }

    /// What a plain relative path holds (see ``plainRelativePath(_:)``).
    enum PlainRelativePath {
        /// Only bytes a URL carries unencoded.
        case encoded
        /// Bytes that `percentEncodeInvalidCharacters(_:)` encodes.
        case toEncode
    }

    /// Whether `reference` is a plain relative path (``isPlainRelativePath(_:)``) and whether it needs encoding, in
    /// one pass; `nil` when it is not one.
    static func plainRelativePath(_ reference: String) -> PlainRelativePath? {
        reference.withUTF8Bytes { bytes -> PlainRelativePath? in
            guard let first = bytes.first, first != UInt8(ascii: "/"), first != UInt8(ascii: ".") else { return nil }
            var previous: UInt8 = 0
            var encoded = true
            for byte in bytes {
                switch byte {
                case UInt8(ascii: ":"), UInt8(ascii: "?"), UInt8(ascii: "#"): return nil
                case UInt8(ascii: ".") where previous == UInt8(ascii: "/"): return nil
                default:
                    previous = byte
                    if !isValidURLByte(byte) { encoded = false }
                }
            }
            return encoded ? .encoded : .toEncode
        }
    }

    /// Whether `reference` is an absolute path without a fragment, two leading slashes (an authority) or a dot
    /// segment before its query, and whether it needs encoding, in one pass; `nil` when it is not one. Such a path
    /// resolves to the base's `scheme://authority` followed by the path as it is. A non-ASCII byte right after the
    /// slash is left to the general resolution: a combining mark or joiner there (`/\u{301}x`) makes one character
    /// of the slash and itself, which the general resolution, comparing characters, does not read as a leading `/`.
    static func absolutePath(_ reference: String) -> PlainRelativePath? {
        reference.withUTF8Bytes { bytes -> PlainRelativePath? in
            guard bytes.first == UInt8(ascii: "/"),
                bytes.count < 2 || (bytes[1] != UInt8(ascii: "/") && bytes[1] < 0x80)
            else { return nil }
            return pathForm(bytes)
        }
    }

    /// Whether `reference` is an absolute URL that the general resolution leaves as it is (but for its encoding):
    /// `http://` or `https://` in small letters, a host, then a path whose form ``pathForm(_:)`` accepts; and
    /// whether it needs encoding, in one pass; `nil` when it is not one (`HTTP://h`, `http://h`, `http://h?q`).
    static func plainAbsoluteURL(_ reference: String) -> PlainRelativePath? {
        reference.withUTF8Bytes { bytes -> PlainRelativePath? in
            guard let schemeLength = httpSchemeLength(bytes) else { return nil }
            // The authority runs to the path's slash, which must come before any query or fragment.
            var slash = schemeLength
            while slash < bytes.count, bytes[slash] != UInt8(ascii: "/") {
                if bytes[slash] == UInt8(ascii: "?") || bytes[slash] == UInt8(ascii: "#") { return nil }
                slash += 1
            }
            guard slash > schemeLength, slash < bytes.count,
                let path = pathForm(UnsafeBufferPointer(rebasing: bytes[slash...]))
            else { return nil }
            return path == .encoded && bytes[..<slash].allSatisfy(isValidURLByte) ? .encoded : .toEncode
        }
    }

    /// The length of `http://` or `https://` (in small letters) at the start of `bytes`; `nil` without either.
    static func httpSchemeLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if bytes.starts(with: "http://".utf8) { return 7 }
        if bytes.starts(with: "https://".utf8) { return 8 }
        return nil
    }

    /// Whether the bytes of a path and query (`/users/1?x=1`) have no fragment and no dot segment before the query,
    /// which the general resolution would change, and whether they need encoding; `nil` when they have either.
    static func pathForm(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainRelativePath? {
        var previous: UInt8 = 0
        var inQuery = false
        var encoded = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "#"): return nil
            case UInt8(ascii: "?"): inQuery = true
            case UInt8(ascii: ".") where previous == UInt8(ascii: "/") && !inQuery: return nil
            default: break
            }
            previous = byte
            if !isValidURLByte(byte) { encoded = false }
        }
        return encoded ? .encoded : .toEncode
    }

    /// The parts of a base URL as the general resolution reads them: without surrounding whitespace, the path with
    /// a terminal slash; `nil` when it has no scheme.
    static func baseParts(_ base: String) -> Components? {
        var parts = Components(base.trimmingWhitespace())
        guard parts.scheme != nil else { return nil }
        if !parts.path.hasSuffix("/") { parts.path += "/" }
        return parts
    }

    /// `base` with a terminal slash, when it is a lower-case http(s) URL with a host and no query or fragment, and
    /// does not end in whitespace (which the general resolution trims: `http://h\u{3000}`).
    static func plainBase(_ base: String) -> String? {
        guard base.trimmingWhitespace().utf8.count == base.utf8.count else { return nil }
        let endsInSlash = base.withUTF8Bytes { bytes -> Bool? in
            guard let schemeLength = httpSchemeLength(bytes) else { return nil }
            guard bytes.count > schemeLength, bytes[schemeLength] != UInt8(ascii: "/"), bytes[schemeLength] < 0x80
            else { return nil }
            // One pass: no space or control byte, no query or fragment, no "/." (where a dot segment can start).
            var previous: UInt8 = 0
            for byte in bytes {
                if byte <= 0x20 || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
                    || (byte == UInt8(ascii: ".") && previous == UInt8(ascii: "/"))
                {
                    return nil
                }
                previous = byte
            }
            return previous == UInt8(ascii: "/")
        }
        guard let endsInSlash else { return nil }
        return endsInSlash ? base : base + "/"
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
        // Fast path: no `.` or `..` segment can be present without "/." or a leading ".".
        if !path.hasPrefix("."), !containsSlashDot(path) { return path }
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

    /// Whether `text` contains "/." (where a dot segment can start), scanning bytes.
    static func containsSlashDot(_ text: String) -> Bool {
        text.withUTF8Bytes(containsSlashDot)
    }

    /// Whether `bytes` hold `/.`.
    static func containsSlashDot(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: "/") { return true }
            previous = byte
        }
        return false
    }

    // MARK: - Encoding

    /// Percent-encodes bytes a URL cannot carry (spaces, controls, non-ASCII, `"<>\^`{|}`), keeping existing
    /// escapes and every reserved character as it is.
    public static func percentEncodeInvalidCharacters(_ url: String) -> String {
        if url.withUTF8Bytes({ $0.allSatisfy(isValidURLByte) }) { return url }
        var result = ""
        result.reserveCapacity(url.utf8.count)
        for byte in url.utf8 {
            if isValidURLByte(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += PercentEncoding.escape(byte)
            }
        }
        return result
    }

    /// Printable ASCII other than `"<>\^`{|}`: what a URL may hold unencoded. Two bit masks (bit `b` set when byte
    /// `b` is valid, bytes 0–63 and 64–127), not a set lookup or a switch: this runs for every byte of every
    /// request's URL.
    @inline(__always)
    static func isValidURLByte(_ byte: UInt8) -> Bool {
        if byte < 64 { return (0xAFFF_FFFA_0000_0000 as UInt64) &>> UInt64(byte) & 1 != 0 }
        return byte < 128 && (0x47FF_FFFE_AFFF_FFFF as UInt64) &>> UInt64(byte &- 64) & 1 != 0
    }
}

extension String {
    func trimmingWhitespace() -> String {
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return self
        }
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
