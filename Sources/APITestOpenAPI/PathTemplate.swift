/// A path template of `paths` (`/pets/{id}`, `/files/{name}.{ext}`), split into segments.
struct PathTemplate: Sendable, Hashable {
    /// A piece of a segment.
    enum Part: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    /// A segment between slashes.
    enum Segment: Sendable, Hashable {
        /// Text only, percent-decoded.
        case literal(String)
        /// One whole parameter (`{id}`).
        case parameter(String)
        /// Text and parameters (`{name}.{ext}`).
        case mixed([Part])

        /// Whether the segment has a parameter.
        var isTemplated: Bool {
            if case .literal = self { return false }
            return true
        }
    }

    /// The template as written.
    var text: String
    /// The segments; `/` is one empty literal segment, and a trailing slash adds one.
    var segments: [Segment]

    /// The offset of the segment that is the parameter `name` and nothing else, when no other segment names it.
    func wholeSegment(of name: String) -> Int? {
        var found: Int?
        for (offset, segment) in segments.enumerated() {
            switch segment {
            case .literal: continue
            case .parameter(let parameter):
                guard parameter == name else { continue }
                guard found == nil else { return nil }
                found = offset
            case .mixed(let parts):
                if parts.contains(.parameter(name)) { return nil }
            }
        }
        return found
    }

    /// Parses `text`; nil when it does not start with `/`, or its braces do not pair around non-empty names.
    init?(_ text: String) {
        guard text.hasPrefix("/") else { return nil }
        self.text = text
        var segments: [Segment] = []
        for piece in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let segment = Self.segment(piece) else { return nil }
            segments.append(segment)
        }
        self.segments = segments
    }

    private static func segment(_ text: Substring) -> Segment? {
        guard text.contains("{") || text.contains("}") else {
            return .literal(PercentEncoding.decodeLeniently(text))
        }
        var parts: [Part] = []
        var rest = text
        while !rest.isEmpty {
            if let open = rest.firstIndex(of: "{") {
                let before = rest[..<open]
                guard !before.contains("}") else { return nil }
                if !before.isEmpty { parts.append(.literal(PercentEncoding.decodeLeniently(before))) }
                let afterOpen = rest.index(after: open)
                guard let close = rest[afterOpen...].firstIndex(of: "}") else { return nil }
                let name = rest[afterOpen..<close]
                guard !name.isEmpty, !name.contains("{") else { return nil }
                if case .parameter = parts.last { return nil } // `{a}{b}` cannot be told apart
                parts.append(.parameter(String(name)))
                rest = rest[rest.index(after: close)...]
            } else {
                guard !rest.contains("}") else { return nil }
                parts.append(.literal(PercentEncoding.decodeLeniently(rest)))
                rest = ""
            }
        }
        if parts.count == 1, case .parameter(let name) = parts[0] { return .parameter(name) }
        return .mixed(parts)
    }

    /// The names of the parameters, in order.
    var parameterNames: [String] {
        segments.flatMap { segment -> [String] in
            switch segment {
            case .literal: []
            case .parameter(let name): [name]
            case .mixed(let parts):
                parts.compactMap {
                    if case .parameter(let name) = $0 { name } else { nil }
                }
            }
        }
    }

    /// The template with every parameter's name left out (`/pets/{}`): two templates with the same shape match the
    /// same paths.
    var shape: String {
        "/"
            + segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter: "{}"
                case .mixed(let parts):
                    parts.map {
                        switch $0 {
                        case .literal(let text): text
                        case .parameter: "{}"
                        }
                    }.joined()
                }
            }.joined(separator: "/")
    }

    // MARK: - Matching segments

    /// The values of `parts`' parameters in `segment`, or nil when it does not match; each parameter takes at least
    /// one code point, literals compare by code points, and the first way that matches wins.
    static func match(_ parts: [Part], _ segment: Substring) -> [String: String]? {
        var values: [String: String] = [:]
        return match(parts[...], segment, &values) ? values : nil
    }

    private static func match(_ parts: ArraySlice<Part>, _ text: Substring, _ values: inout [String: String]) -> Bool {
        guard let first = parts.first else { return text.isEmpty }
        switch first {
        case .literal(let literal):
            guard text.utf8.starts(with: literal.utf8) else { return false }
            // A prefix of whole code points ends on a code-point boundary.
            let rest = text.utf8.index(text.utf8.startIndex, offsetBy: literal.utf8.count)
            return match(parts.dropFirst(), text[rest...], &values)
        case .parameter(let name):
            let rest = parts.dropFirst()
            guard !text.isEmpty else { return false }
            if rest.isEmpty {
                values[name] = String(text)
                return true
            }
            let scalars = text.unicodeScalars
            var end = scalars.index(after: scalars.startIndex)
            while end <= scalars.endIndex {
                if match(rest, text[end...], &values) {
                    values[name] = String(text[..<end])
                    return true
                }
                if end == scalars.endIndex { break }
                end = scalars.index(after: end)
            }
            return false
        }
    }
}
