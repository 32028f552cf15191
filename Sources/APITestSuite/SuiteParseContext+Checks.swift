import APITestJSON
import APITestSupport
import APITestYAML
import Foundation

/// Checks of single values that need more than their YAML type: JSONPath, regular expressions, XPath, header
/// names, HTTP methods and files.
extension SuiteParseContext {
    // MARK: - JSONPath

    /// `expression` compiled; a syntax error is reported at the offending character and gives `nil`. Suites repeat
    /// the same few paths, so each is compiled once.
    func jsonPath(_ expression: String, at node: YAMLNode) -> JSONPath? {
        // The path last asked for is compared first: a suite's tests check the same path one after another.
        if let last = shared.lastJSONPath, last.expression.hasSameCodePoints(as: expression) { return last.compiled }
        if let compiled = shared.jsonPaths[CodePointKey(expression)] {
            shared.lastJSONPath = (expression, compiled)
            return compiled
        }
        let problem: JSONPathError
        do {
            let compiled = try JSONPath(expression)
            shared.jsonPaths[CodePointKey(expression)] = compiled
            shared.lastJSONPath = (expression, compiled)
            return compiled
        } catch {
            problem = error
        }
        let scalarOffset = Self.scalarOffset(ofCharacterOffset: problem.offset, in: expression)
        let at = text.locate(
            pieceAt: min(scalarOffset, max(0, expression.unicodeScalars.count - 1)), length: 1, in: expression,
            valueStart: location(of: node))
        var message = "invalid JSONPath '\(expression)': \(problem.message)"
        if let suggestion = JSONPath.bracketNotation(for: expression) { message += "; did you mean '\(suggestion)'?" }
        error(message, at: at)
        return nil
    }

    /// The offset in Unicode scalars of the character at `offset` in `text`.
    private static func scalarOffset(ofCharacterOffset offset: Int, in text: String) -> Int {
        let end = text.index(text.startIndex, offsetBy: max(0, offset), limitedBy: text.endIndex) ?? text.endIndex
        return text[..<end].unicodeScalars.count
    }

    // MARK: - Regular expressions

    /// `pattern` compiled; a pattern ``RegularExpression`` refuses is reported with why and gives `nil`. Each pattern is
    /// compiled once.
    func regularExpression(_ pattern: String, at node: YAMLNode) -> RegularExpression? {
        if let compiled = shared.regularExpressions[CodePointKey(pattern)] { return compiled }
        do {
            let compiled = try RegularExpression(pattern)
            shared.regularExpressions[CodePointKey(pattern)] = compiled
            return compiled
        } catch {
            self.error("invalid regular expression '\(pattern)'", at: node, note: error.description)
            return nil
        }
    }

    // MARK: - HTTP tokens

    /// True for an RFC 9110 token (method and header names).
    static func isToken(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        // A name's contiguous bytes, each tested against two masks; `Set.contains` for each byte cost ten times as
        // much.
        if let result = text.utf8.withContiguousStorageIfAvailable(isToken(bytes:)) { return result }
        var copy = text
        return copy.withUTF8(isToken(bytes:))
    }

    /// True when every byte of `bytes` is a token character: an ASCII letter or digit, or one of
    /// `!#$%&'*+-.^_`|~`.
    private static func isToken(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            let mask = byte < 64 ? tokenBytesLow : tokenBytesHigh
            guard byte < 128, mask & (1 << UInt64(byte & 63)) != 0 else { return false }
        }
        return true
    }

    /// The token bytes below 64 as bits (bit n for byte n): the digits and `!#$%&'*+-.`.
    private static let tokenBytesLow: UInt64 = tokenMask(0..<64)
    /// The token bytes from 64 to 127 as bits (bit n for byte 64 + n): the letters and `^_`|~`.
    private static let tokenBytesHigh: UInt64 = tokenMask(64..<128)

    /// The bits of the token bytes in `range` (64 bytes from a multiple of 64).
    private static func tokenMask(_ range: Range<UInt8>) -> UInt64 {
        var mask: UInt64 = 0
        for byte in range
        where TemplateScanner.isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        {
            mask |= 1 << UInt64(byte & 63)
        }
        return mask
    }

    /// Reports a header name that is not an HTTP token; true when valid.
    func checkHeaderName(_ name: String, at node: YAMLNode) -> Bool {
        guard Self.isToken(name) else {
            error("invalid header name '\(name)'", at: node)
            return false
        }
        return true
    }

    // MARK: - Files

    /// The absolute path of a file named relative to the suite's directory, if it is a readable regular file;
    /// `key` names the setting in messages (`bodyFile`, `file`).
    func checkBodyFile(_ path: String, at node: YAMLNode, for key: String = "bodyFile") -> String? {
        guard !path.isEmpty else {
            error("'\(key)' needs a file path", at: node)
            return nil
        }
        let absolute = FilePaths.absolute(path, relativeTo: directory)
        // The same check as for the files named on the command line: stat(2) and access(2), never open(2).
        if let problem = ReadableFile.problem(at: absolute) {
            error(
                problem.message(key: key, path: path), at: node,
                note: problem == .missing ? "looked for \(absolute)" : nil)
            return nil
        }
        return absolute
    }

    // MARK: - XPath

    /// A light syntax check of an XPath expression (brackets and quotes); the full check happens when it is
    /// evaluated. True when nothing is wrong.
    func checkXPath(_ expression: String, at node: YAMLNode) -> Bool {
        guard !expression.trimmingCharacters(in: .whitespaces).isEmpty else {
            error("an XPath expression cannot be empty", at: node)
            return false
        }
        var stack: [Character] = []
        var quote: Character?
        for character in expression {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case "(", "[": stack.append(character)
            case ")", "]":
                let expected: Character = character == ")" ? "(" : "["
                guard stack.last == expected else {
                    error("invalid XPath '\(expression)': '\(character)' has no matching '\(expected)'", at: node)
                    return false
                }
                stack.removeLast()
            default: break
            }
        }
        if let open = quote {
            error("invalid XPath '\(expression)': a \(open) quote is not closed", at: node)
            return false
        }
        if let open = stack.last {
            error("invalid XPath '\(expression)': a '\(open)' is not closed", at: node)
            return false
        }
        return true
    }
}
