// MARK: - Matching requests to operations

extension OpenAPIContract {
    /// The operation `method` on `url` (absolute, or a path with its query) is for.
    ///
    /// The path is matched without the servers' prefix (the host is not compared); segments compare
    /// percent-decoded. A `HEAD` that the document does not declare matches the path's `GET`.
    package func match(method: String, url: String) -> OpenAPIMatch {
        switch route(method: method, url: url) {
        case .found(let index, let path):
            let compiled = table[index]
            guard !compiled.isIgnored else { return .ignored }
            return .operation(
                compiled.operation, pathParameters: path.values(of: compiled.template).mapValues(\.decoded))
        case .notFound(let method, let path):
            return .noOperation(method: method, path: path)
        case .outside:
            return .outsideServers
        }
    }

    /// A path parameter's value as sent and decoded.
    struct PathValue {
        /// As in the URL.
        var raw: String
        /// Percent-decoded.
        var decoded: String
    }

    /// The segments of a routed path after the server prefix, as sent and percent-decoded: slices of the URL's
    /// segments, read into parameter values only when a check asks for them.
    struct RoutedPath {
        /// As in the URL.
        var raw: ArraySlice<Substring>
        /// Percent-decoded.
        var decoded: ArraySlice<Substring>

        /// The values of `template`'s parameters in the path it matched (with or without a trailing slash).
        func values(of template: PathTemplate) -> [String: PathValue] {
            var values: [String: PathValue] = [:]
            for (offset, segment) in template.segments.enumerated() where offset < decoded.count {
                switch segment {
                case .literal:
                    continue
                case .parameter(let name):
                    values[name] = PathValue(
                        raw: String(raw[raw.startIndex + offset]), decoded: String(decoded[decoded.startIndex + offset])
                    )
                case .mixed(let parts):
                    for (name, value) in Self.mixedValues(
                        parts, raw[raw.startIndex + offset], decoded[decoded.startIndex + offset])
                    {
                        values[name] = value
                    }
                }
            }
            return values
        }

        /// The value of `template`'s parameter `name` (the last one of that name, as ``values(of:)`` keeps it), without
        /// reading the others.
        func value(named name: String, of template: PathTemplate) -> PathValue? {
            var found: PathValue?
            for (offset, segment) in template.segments.enumerated() where offset < decoded.count {
                switch segment {
                case .literal:
                    continue
                case .parameter(let parameter):
                    guard parameter == name else { continue }
                    found = PathValue(
                        raw: String(raw[raw.startIndex + offset]), decoded: String(decoded[decoded.startIndex + offset])
                    )
                case .mixed(let parts):
                    guard parts.contains(.parameter(name)) else { continue }
                    if let value = Self.mixedValues(
                        parts, raw[raw.startIndex + offset], decoded[decoded.startIndex + offset])[name]
                    {
                        found = value
                    }
                }
            }
            return found
        }

        /// The values of a mixed segment's parameters (`{name}.{ext}`).
        private static func mixedValues(
            _ parts: [PathTemplate.Part], _ raw: Substring, _ decoded: Substring
        ) -> [String: PathValue] {
            guard let decodedValues = PathTemplate.match(parts, decoded) else { return [:] }
            let rawValues = PathTemplate.match(parts, raw) ?? [:]
            var values: [String: PathValue] = [:]
            for (name, value) in decodedValues {
                values[name] = PathValue(raw: rawValues[name] ?? value, decoded: value)
            }
            return values
        }
    }

    /// What routing a request found.
    enum Route {
        case found(Int, RoutedPath)
        case notFound(method: String, path: String)
        case outside
    }

    /// Routes `method` and `url` to an operation of the table, ignored ones included.
    func route(method: String, url: String) -> Route {
        let upper = method.utf8.contains(where: { (0x61...0x7A).contains($0) }) ? method.uppercased() : method
        let (rawSegments, hasPercent) = ServerURL.pathSegments(ofURL: url)
        let decoded = hasPercent ? rawSegments.map { Substring(PercentEncoding.decodeLeniently($0)) } : rawSegments
        var firstPrefixMatched: Int?
        for prefix in serverPrefixes {
            guard prefix.count <= decoded.count, zip(prefix, decoded).allSatisfy({ $0.utf8.elementsEqual($1.utf8) })
            else { continue }
            if firstPrefixMatched == nil { firstPrefixMatched = prefix.count }
            // The rest of the path, in place; `/` left after the prefix is one empty segment.
            var rest = RoutedPath(raw: rawSegments[prefix.count...], decoded: decoded[prefix.count...])
            if rest.decoded.isEmpty { rest = RoutedPath(raw: [""], decoded: [""]) }
            if let found = router.lookup(method: upper, segments: rest.decoded)
                ?? (upper == "HEAD" ? router.lookup(method: "GET", segments: rest.decoded) : nil)
            {
                return .found(found, rest)
            }
        }
        guard let matched = firstPrefixMatched else { return .outside }
        let remainder = rawSegments[matched...].joined(separator: "/")
        return .notFound(method: upper, path: "/" + remainder)
    }
}
