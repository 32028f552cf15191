import APITestSupport

/// A character found in a request field that goes on the wire as text, where it would end the field early: a
/// carriage return or line feed (which would start a new header line, or a second request) or a NUL; or, in a
/// header value, another control character (RFC 9110 5.5 allows none but the horizontal tab).
///
/// The session manager checks every such field just before a transfer starts (`HTTPRequest.checkWireFields()`)
/// and fails the request with `HTTPError.Reason.forbiddenCharacter` instead of sending it.
public struct ForbiddenCharacter: Sendable, Hashable, CustomStringConvertible {
    /// The character found.
    public enum Character: Sendable, Hashable {
        case carriageReturn
        case lineFeed
        case nul
        /// Another C0 control character (not the horizontal tab) or DEL: refused in header values.
        case control(UInt8)

        /// `a carriage return (CR)`, for messages.
        public var description: String {
            switch self {
            case .carriageReturn: return "a carriage return (CR)"
            case .lineFeed: return "a line feed (LF)"
            case .nul: return "a NUL byte"
            case .control(let byte):
                let hex = String(byte, radix: 16, uppercase: true)
                return "the control character U+" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }

        /// The character for `byte`, when it is one that cannot go on the wire (in a header value when
        /// `inHeaderValue`: any control character but the horizontal tab).
        init?(byte: UInt8, inHeaderValue: Bool = false) {
            switch byte {
            case 0x0D: self = .carriageReturn
            case 0x0A: self = .lineFeed
            case 0x00: self = .nul
            default:
                guard inHeaderValue, byte != 0x09, byte < 0x20 || byte == 0x7F else { return nil }
                self = .control(byte)
            }
        }
    }

    /// The field that holds the character.
    public enum Field: Sendable, Hashable {
        case method
        case url
        /// The name of a header field (given as found, which may itself hold the character).
        case headerName(String)
        case headerValue(name: String)
        /// The encodings offered in `Accept-Encoding`.
        case acceptEncoding
        /// The `name` of the multipart part at this 0-based position.
        case multipartName(index: Int)
        case multipartFilename(part: String)
        case multipartContentType(part: String)
        case multipartHeaderName(part: String, name: String)
        case multipartHeaderValue(part: String, name: String)

        /// `the value of header 'X-Token'`, for messages; names are shown with control characters escaped.
        public var description: String {
            switch self {
            case .method: return "the method"
            case .url: return "the URL"
            case .headerName(let name): return "the name of header '\(Self.shown(name))'"
            case .headerValue(let name): return "the value of header '\(Self.shown(name))'"
            case .acceptEncoding: return "the Accept-Encoding list"
            case .multipartName(let index): return "the name of multipart part \(index + 1)"
            case .multipartFilename(let part): return "the filename of multipart part '\(Self.shown(part))'"
            case .multipartContentType(let part): return "the content type of multipart part '\(Self.shown(part))'"
            case .multipartHeaderName(let part, let name):
                return "the name of header '\(Self.shown(name))' of multipart part '\(Self.shown(part))'"
            case .multipartHeaderValue(let part, let name):
                return "the value of header '\(Self.shown(name))' of multipart part '\(Self.shown(part))'"
            }
        }

        /// `text` with its control characters (C0, DEL, C1), line breaks and bidirectional controls written as
        /// escapes (`\r`, `\n`, `\0`, `\t`, `\u{1B}`), so a name never breaks or reorders a message.
        static func shown(_ text: String) -> String { shownEscaping.escape(text) }

        /// The escaping of ``shown(_:)``.
        private static let shownEscaping = DisplayEscaping(
            [.controls, .lineBreaks, .bidiControls],
            replacing: ["\r": #"\r"#, "\n": #"\n"#, "\0": #"\0"#, "\t": #"\t"#])
    }

    public var field: Field
    public var character: Character

    public init(field: Field, character: Character) {
        self.field = field
        self.character = character
    }

    /// `the value of header 'X-Token' contains a line feed (LF)`.
    public var description: String { "\(field.description) contains \(character.description)" }
}
