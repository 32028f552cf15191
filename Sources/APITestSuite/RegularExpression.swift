package import APITestJSON

/// A regular expression a suite writes, compiled once when the suite loads to a ``LinearRegex``: ICU syntax without
/// the constructs that need backtracking, matched in time linear in the text, so no pattern and no response can
/// stall a run. The runner matches with it and messages show ``pattern``.
///
/// Two expressions are equal when their patterns are.
///
/// The pattern and its compiled form live in one immutable box, so that an expression is one reference: a
/// `LinearRegex` inline took 88 bytes in every `Assertion` (whose `pattern` most checks leave out) and in every
/// `Query`, and a suite can hold 100,000 of them.
package struct RegularExpression: Sendable, Hashable, CustomStringConvertible {
    /// The pattern and its compiled form.
    private let compiled: Compiled

    /// The pattern as written.
    package var pattern: String { compiled.pattern }
    /// The compiled expression (immutable, so safe to share between threads).
    package var regex: LinearRegex { compiled.regex }

    /// Compiles `pattern`; a pattern outside the supported syntax throws its located ``LinearRegex/SyntaxError``.
    package init(_ pattern: String) throws(LinearRegex.SyntaxError) {
        compiled = Compiled(pattern: pattern, regex: try LinearRegex(pattern))
    }

    /// The immutable box of a pattern and its compiled form.
    private final class Compiled: Sendable {
        let pattern: String
        let regex: LinearRegex

        init(pattern: String, regex: LinearRegex) {
            self.pattern = pattern
            self.regex = regex
        }
    }

    /// How many capture groups the pattern has.
    package var numberOfCaptureGroups: Int { regex.captureCount }

    /// The pattern as written.
    package var description: String { pattern }

    // MARK: - Matching

    /// Whether the pattern matches somewhere in `text`. False when the calling task is cancelled mid-match: the run
    /// is being interrupted, and the step that asked ends as interrupted (`TestExecutor` looks after its checks).
    package func firstMatch(in text: String) -> Bool {
        (try? regex.matches(text)) ?? false
    }

    /// Group `group` of the first match (the whole match for 0); nil without a match, when the group took no part,
    /// or when the calling task is cancelled mid-match.
    package func firstMatch(in text: String, group: Int) -> String? {
        guard let match = try? regex.firstMatch(in: text), group < match.count, let range = match[group] else {
            return nil
        }
        return String(text.unicodeScalars[range])
    }

    /// Why ``replacingMatches(in:with:limit:)`` has no result.
    package enum ReplaceFailure: Error, Sendable, Hashable {
        /// The result would be longer than `limit` bytes.
        case tooLong(limit: Int)
        /// The calling task was cancelled mid-match.
        case interrupted
        /// Finding every match took too many steps (a pattern whose preferred alternative runs past each match).
        case tooManySteps

        /// The failure in a few words, for messages (`replace: ...`, `filter 'replace' ...`).
        package var sentence: String {
            switch self {
            case .tooLong(let limit): "the result would be longer than \(limit) bytes"
            case .interrupted: "interrupted"
            case .tooManySteps:
                "the pattern scans the rest of the text for every match (as '(a.*b)|a' does): too many steps"
            }
        }
    }

    /// `text` with every match replaced by `template`, where `$n` is group n (as many digits as name a group),
    /// `${name}` a named group and `\` makes the next character literal (ICU's template syntax). A result longer than
    /// `limit` bytes is an error, so a short text with many matches cannot grow without bound.
    package func replacingMatches(
        in text: String, with template: String, limit: Int
    ) throws(ReplaceFailure) -> String {
        let pieces = Self.templatePieces(template, groups: regex.captureCount, names: regex.groupNames)
        // UTF-8 bytes: a match may start or end inside a character (a combining accent), and the text is cut at
        // scalars, never rounded to characters; appending bytes is also linear where a string's scalar view is not.
        let utf8 = text.utf8
        var result: [UInt8] = []
        var copied = text.startIndex
        var steps = 0
        do {
            try regex.forEachMatch(in: text, steps: &steps) { match in
                let whole = match[0]!
                result += utf8[copied..<whole.lowerBound]
                for piece in pieces {
                    switch piece {
                    case .literal(let literal): result += literal.utf8
                    case .group(let group): if let range = match[group] { result += utf8[range] }
                    }
                }
                copied = whole.upperBound
                return result.count <= limit
            }
        } catch {
            if case .stepLimit = error { throw .tooManySteps }
            throw .interrupted
        }
        result += utf8[copied...]
        guard result.count <= limit else { throw .tooLong(limit: limit) }
        return String(decoding: result, as: UTF8.self)
    }

    /// A piece of a replacement template.
    private enum TemplatePiece {
        case literal(String)
        case group(Int)
    }

    private static func templatePieces(_ template: String, groups: Int, names: [String: Int]) -> [TemplatePiece] {
        var pieces: [TemplatePiece] = []
        var literal = ""
        let scalars = Array(template.unicodeScalars)
        var index = 0
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\\", index < scalars.count {
                literal.unicodeScalars.append(scalars[index])
                index += 1
            } else if scalar == "$", index < scalars.count, ("0"..."9").contains(scalars[index]) {
                // As many digits as still name a group.
                var group = Int(scalars[index].value - 0x30)
                index += 1
                while index < scalars.count, ("0"..."9").contains(scalars[index]),
                    group * 10 + Int(scalars[index].value - 0x30) <= groups
                {
                    group = group * 10 + Int(scalars[index].value - 0x30)
                    index += 1
                }
                flush()
                if group <= groups { pieces.append(.group(group)) }
            } else if scalar == "$", index < scalars.count, scalars[index] == "{",
                let close = scalars[index...].firstIndex(of: "}"),
                let group = names[String(String.UnicodeScalarView(scalars[(index + 1)..<close]))]
            {
                flush()
                pieces.append(.group(group))
                index = close + 1
            } else {
                literal.unicodeScalars.append(scalar)
            }
        }
        flush()
        return pieces
    }

    package static func == (lhs: RegularExpression, rhs: RegularExpression) -> Bool {
        lhs.pattern == rhs.pattern
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
    }
}
