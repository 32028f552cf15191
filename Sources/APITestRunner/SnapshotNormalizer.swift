import APITestJSON
import APITestSecrets
import APITestSuite

/// A body as a snapshot holds it, made the same way on both sides of a comparison: the suite's secrets masked, the
/// `ignore` paths removed and the `redact` patterns replaced by their placeholders.
struct SnapshotNormalizer {
    let spec: SnapshotSpec
    let masker: SecretMasker

    /// `value` without its ignored nodes, its secrets masked and its volatile strings redacted.
    func normalized(_ value: JSONValue) -> JSONValue {
        var value = value
        var removals: [[Segment]] = []
        for path in spec.ignore {
            removals += path.queryLocated(value).compactMap { Self.segments(ofNormalizedPath: $0.path) }
        }
        // Later items first, and children before their parents, so that no removal moves another's node.
        removals.sort { Self.precedes($1, $0) }
        for segments in removals { Self.remove(segments[...], from: &value) }
        return cleaned(value)
    }

    /// `text` with its secrets masked and its volatile values redacted wherever they appear.
    func normalized(_ text: String) -> String {
        let masked = masker.mask(text)
        guard !spec.redact.isEmpty else { return masked }
        return SnapshotRedactor(patterns: spec.redact).redactingOccurrences(in: masked)
    }

    /// `bytes` (a body that is not UTF-8 text) with its secrets masked and its volatile values redacted, read as
    /// Latin-1 text as a report's binary body is masked: every byte that is not part of a match is kept as it is.
    func normalized(bytes: [UInt8]) -> [UInt8] {
        let latin1 = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for scalar in normalized(latin1).unicodeScalars {
            if scalar.value < 0x100 {
                out.append(UInt8(scalar.value))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    // MARK: - Masking and redacting

    private func cleaned(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            let masked = masker.mask(text)
            return .string(SnapshotRedactor(patterns: spec.redact).placeholder(forWhole: masked) ?? masked)
        case .array(let items): return .array(items.map(cleaned))
        case .object(let object):
            return .object(JSONObject(object.members.map { (key: masker.mask($0.key), value: cleaned($0.value)) }))
        default: return value
        }
    }

    // MARK: - Removing nodes

    /// A step of a normalized path: a member name or an array index.
    enum Segment: Equatable {
        case name(String)
        case index(Int)
    }

    /// Whether `a` sorts before `b`: segment by segment, names by code points, indices by number, a prefix first.
    private static func precedes(_ a: [Segment], _ b: [Segment]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            switch (x, y) {
            case (.index(let i), .index(let j)): return i < j
            case (.name(let m), .name(let n)):
                return Array(m.unicodeScalars.map(\.value)).lexicographicallyPrecedes(
                    n.unicodeScalars.map(\.value))
            case (.name, .index): return true
            case (.index, .name): return false
            }
        }
        return a.count < b.count
    }

    private static func remove(_ segments: ArraySlice<Segment>, from value: inout JSONValue) {
        guard let first = segments.first else { return }
        let rest = segments.dropFirst()
        switch (first, value) {
        case (.name(let name), .object(var object)):
            guard var member = object[name] else { return }
            if rest.isEmpty {
                object[name] = nil
            } else {
                remove(rest, from: &member)
                object[name] = member
            }
            value = .object(object)
        case (.index(let index), .array(var items)):
            guard items.indices.contains(index) else { return }
            if rest.isEmpty {
                items.remove(at: index)
            } else {
                remove(rest, from: &items[index])
            }
            value = .array(items)
        default: return
        }
    }

    /// The segments of an RFC 9535 normalized path (`$['a'][0]`, as `JSONPath.queryLocated` spells them); `nil`
    /// for anything else (the root itself is never removed).
    static func segments(ofNormalizedPath path: String) -> [Segment]? {
        var scalars = Array(path.unicodeScalars)[...]
        guard scalars.popFirst() == "$" else { return nil }
        var segments: [Segment] = []
        while let open = scalars.popFirst() {
            guard open == "[", let next = scalars.first else { return nil }
            if next == "'" {
                scalars.removeFirst()
                var name = String.UnicodeScalarView()
                while true {
                    guard let scalar = scalars.popFirst() else { return nil }
                    if scalar == "'" { break }
                    guard scalar == "\\" else {
                        name.append(scalar)
                        continue
                    }
                    guard let escaped = scalars.popFirst() else { return nil }
                    switch escaped {
                    case "b": name.append("\u{08}")
                    case "f": name.append("\u{0C}")
                    case "n": name.append("\n")
                    case "r": name.append("\r")
                    case "t": name.append("\t")
                    case "u":
                        let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
                        scalars = scalars.dropFirst(4)
                        guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code)
                        else { return nil }
                        name.append(scalar)
                    default: name.append(escaped)
                    }
                }
                segments.append(.name(String(name)))
            } else {
                let digits = scalars.prefix { ("0"..."9").contains($0) }
                scalars = scalars.dropFirst(digits.count)
                guard let index = Int(String(String.UnicodeScalarView(digits))) else { return nil }
                segments.append(.index(index))
            }
            guard scalars.popFirst() == "]" else { return nil }
        }
        return segments.isEmpty ? nil : segments
    }
}

// MARK: - Redactor

/// The built-in patterns of `redact:`, matched on text: a UUID, an ISO 8601 date (with or without a time) and an
/// ISO 8601 / RFC 3339 date-time.
struct SnapshotRedactor {
    let patterns: [SnapshotSpec.Redaction]

    /// The placeholder of the first pattern that `text` matches whole (a date-time before a date).
    func placeholder(forWhole text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let (pattern, length) = match(bytes, at: 0), length == bytes.count else { return nil }
        return pattern.placeholder
    }

    /// `text` with every occurrence of a pattern that stands alone (no letter or digit next to it) replaced.
    func redactingOccurrences(in text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index == 0 || !Self.isAlphanumeric(bytes[index - 1]), let (pattern, length) = match(bytes, at: index),
                index + length == bytes.count || !Self.isAlphanumeric(bytes[index + length])
            {
                result += Array(pattern.placeholder.utf8)
                index += length
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The pattern matching at `start` and the length it matches.
    private func match(_ bytes: [UInt8], at start: Int) -> (SnapshotSpec.Redaction, Int)? {
        if patterns.contains(.uuid), let length = Self.uuid(bytes, at: start) { return (.uuid, length) }
        if patterns.contains(.datetime) || patterns.contains(.date), let date = Self.date(bytes, at: start) {
            let time = Self.time(bytes, at: start + date)
            if let time, patterns.contains(.datetime) { return (.datetime, date + time) }
            if patterns.contains(.date) { return (.date, date + (time ?? 0)) }
        }
        return nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// Digits at `start` of `count` bytes, as a number.
    private static func number(_ bytes: [UInt8], at start: Int, count: Int) -> Int? {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func byte(_ bytes: [UInt8], _ index: Int, is character: Character) -> Bool {
        index < bytes.count && bytes[index] == character.asciiValue
    }

    /// `8-4-4-4-12` hexadecimal digits: 36 bytes.
    private static func uuid(_ bytes: [UInt8], at start: Int) -> Int? {
        guard start + 36 <= bytes.count else { return nil }
        for offset in 0..<36 {
            let byte = bytes[start + offset]
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else if !isHex(byte) {
                return nil
            }
        }
        return 36
    }

    /// `YYYY-MM-DD`: 10 bytes.
    private static func date(_ bytes: [UInt8], at start: Int) -> Int? {
        guard number(bytes, at: start, count: 4) != nil, byte(bytes, start + 4, is: "-"),
            let month = number(bytes, at: start + 5, count: 2), (1...12).contains(month),
            byte(bytes, start + 7, is: "-"), let day = number(bytes, at: start + 8, count: 2), (1...31).contains(day)
        else { return nil }
        return 10
    }

    /// `THH:MM[:SS[.fraction]][Z|±HH:MM]` (or a space or `t` for the `T`) after a date: its length.
    private static func time(_ bytes: [UInt8], at start: Int) -> Int? {
        guard byte(bytes, start, is: "T") || byte(bytes, start, is: "t") || byte(bytes, start, is: " "),
            let hour = number(bytes, at: start + 1, count: 2), hour <= 24, byte(bytes, start + 3, is: ":"),
            let minute = number(bytes, at: start + 4, count: 2), minute <= 59
        else { return nil }
        var end = start + 6
        if byte(bytes, end, is: ":"), let second = number(bytes, at: end + 1, count: 2), second <= 60 {
            end += 3
            if byte(bytes, end, is: "."), end + 1 < bytes.count, isDigit(bytes[end + 1]) {
                end += 1
                while end < bytes.count, isDigit(bytes[end]) { end += 1 }
            }
        }
        if byte(bytes, end, is: "Z") || byte(bytes, end, is: "z") {
            end += 1
        } else if byte(bytes, end, is: "+") || byte(bytes, end, is: "-"), number(bytes, at: end + 1, count: 2) != nil,
            byte(bytes, end + 3, is: ":"), number(bytes, at: end + 4, count: 2) != nil
        {
            end += 6
        }
        return end - start
    }
}
