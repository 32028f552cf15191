// MARK: - Matching requests to operations

extension OpenAPIContract {
    /// The operation `method` on `url` (absolute, or a path with its query) is for.
    ///
    /// The path is matched without the servers' prefix (the host is not compared); segments compare
    /// percent-decoded. A `HEAD` that the document does not declare matches the path's `GET`.
    package func match(method: String, url: String) -> OpenAPIMatch {
        switch route(method: method, url: url) {
        case .found(let index, let values):
            let compiled = table[index]
            guard !compiled.isIgnored else { return .ignored }
            return .operation(compiled.operation, pathParameters: values.mapValues(\.decoded))
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

    /// What routing a request found.
    enum Route {
        case found(Int, [String: PathValue])
        case notFound(method: String, path: String)
        case outside
    }

    /// Routes `method` and `url` to an operation of the table, ignored ones included.
    func route(method: String, url: String) -> Route {
        let upper = method.utf8.contains(where: { (0x61...0x7A).contains($0) }) ? method.uppercased() : method
        let (path, _) = ServerURL.split(url)
        let rawSegments = ServerURL.segments(of: path)
        let decoded =
            path.utf8.contains(UInt8(ascii: "%"))
            ? rawSegments.map { Substring(PercentEncoding.decodeLeniently($0)) } : rawSegments
        var firstPrefixMatched: Int?
        for prefix in serverPrefixes {
            guard prefix.count <= decoded.count, zip(prefix, decoded).allSatisfy({ $0.utf8.elementsEqual($1.utf8) })
            else { continue }
            if firstPrefixMatched == nil { firstPrefixMatched = prefix.count }
            var rest = Array(decoded[prefix.count...])
            var restRaw = Array(rawSegments[prefix.count...])
            if rest.isEmpty {
                rest = [""]
                restRaw = [""]
            }
            if let found = lookup(upper, rest) ?? (upper == "HEAD" ? lookup("GET", rest) : nil) {
                return .found(found, pathValues(table[found].template, raw: restRaw, decoded: rest))
            }
        }
        guard let matched = firstPrefixMatched else { return .outside }
        let remainder = rawSegments[matched...].joined(separator: "/")
        return .notFound(method: upper, path: "/" + remainder)
    }

    private func lookup(_ method: String, _ segments: [Substring]) -> Int? {
        router.lookup(method: method, segments: segments)
    }

    /// The values of `template`'s parameters in a path it matched (with or without a trailing slash).
    private func pathValues(_ template: PathTemplate, raw: [Substring], decoded: [Substring]) -> [String: PathValue] {
        var values: [String: PathValue] = [:]
        for (offset, segment) in template.segments.enumerated() where offset < decoded.count {
            switch segment {
            case .literal:
                continue
            case .parameter(let name):
                values[name] = PathValue(raw: String(raw[offset]), decoded: String(decoded[offset]))
            case .mixed(let parts):
                guard let decodedValues = PathTemplate.match(parts, decoded[offset]) else { continue }
                let rawValues = PathTemplate.match(parts, raw[offset]) ?? [:]
                for (name, value) in decodedValues {
                    values[name] = PathValue(raw: rawValues[name] ?? value, decoded: value)
                }
            }
        }
        return values
    }
}
