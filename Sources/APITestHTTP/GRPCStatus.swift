public import Foundation

/// The status a gRPC call ended with: the server's (`grpc-status`, `grpc-message`, `grpc-status-details-bin` in its
/// trailers, or in the headers of a trailers-only response), or one the client set for a failure of its own
/// (`GRPCError.status`).
public struct GRPCStatus: Sendable, Hashable {
    /// The status codes gRPC defines, by their number; their names are those of the gRPC documentation.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case ok = 0
        case cancelled = 1
        case unknown = 2
        case invalidArgument = 3
        case deadlineExceeded = 4
        case notFound = 5
        case alreadyExists = 6
        case permissionDenied = 7
        case resourceExhausted = 8
        case failedPrecondition = 9
        case aborted = 10
        case outOfRange = 11
        case unimplemented = 12
        case `internal` = 13
        case unavailable = 14
        case dataLoss = 15
        case unauthenticated = 16

        /// The code's name as gRPC writes it (`NOT_FOUND`).
        public var name: String {
            switch self {
            case .ok: "OK"
            case .cancelled: "CANCELLED"
            case .unknown: "UNKNOWN"
            case .invalidArgument: "INVALID_ARGUMENT"
            case .deadlineExceeded: "DEADLINE_EXCEEDED"
            case .notFound: "NOT_FOUND"
            case .alreadyExists: "ALREADY_EXISTS"
            case .permissionDenied: "PERMISSION_DENIED"
            case .resourceExhausted: "RESOURCE_EXHAUSTED"
            case .failedPrecondition: "FAILED_PRECONDITION"
            case .aborted: "ABORTED"
            case .outOfRange: "OUT_OF_RANGE"
            case .unimplemented: "UNIMPLEMENTED"
            case .internal: "INTERNAL"
            case .unavailable: "UNAVAILABLE"
            case .dataLoss: "DATA_LOSS"
            case .unauthenticated: "UNAUTHENTICATED"
            }
        }

        /// The code named `name` (`NOT_FOUND`, any case), or nil.
        public init?(name: String) {
            let upper = name.uppercased()
            guard let code = Self.allCases.first(where: { $0.name == upper }) else { return nil }
            self = code
        }
    }

    /// The status code as a number: one of `Code`'s, or another a server sent (which gRPC treats as UNKNOWN).
    public var rawCode: Int
    /// The status message, percent-decoded (`grpc-message`); empty when there was none.
    public var message: String
    /// The bytes of `grpc-status-details-bin` (a serialized `google.rpc.Status`), base64-decoded; nil when absent.
    public var details: Data?

    /// A status of `rawCode` with `message` and `details`.
    public init(rawCode: Int, message: String = "", details: Data? = nil) {
        self.rawCode = rawCode
        self.message = message
        self.details = details
    }

    /// A status of `code` with `message` and `details`.
    public init(_ code: Code, message: String = "", details: Data? = nil) {
        self.init(rawCode: code.rawValue, message: message, details: details)
    }

    /// The code, nil for a number gRPC does not define.
    public var code: Code? { Code(rawValue: rawCode) }

    /// Whether the call succeeded.
    public var isOK: Bool { rawCode == 0 }

    /// The code's name, or its number when gRPC defines none.
    public var codeName: String { code?.name ?? String(rawCode) }
}

// MARK: - Reading the wire form

extension GRPCStatus {
    /// The status in `fields` (trailers, or the headers of a trailers-only response): nil when `grpc-status` is
    /// absent; a value that is not a decimal number is reported as UNKNOWN with the value in its message.
    static func read(from fields: HTTPHeaders) -> GRPCStatus? {
        guard let text = fields["grpc-status"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        let message = fields["grpc-message"].map(Self.percentDecoded) ?? ""
        let details = fields["grpc-status-details-bin"].flatMap(GRPCMetadata.decodeBase64)
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Int(text)
        else {
            return GRPCStatus(.unknown, message: "invalid grpc-status '\(text)': \(message)", details: details)
        }
        return GRPCStatus(rawCode: number, message: message, details: details)
    }

    /// `grpc-message` decoded: each `%XX` is the byte it names, the bytes read as UTF-8; a `%` not followed by two
    /// hexadecimal digits stays as it is (gRPC's rule), as do bytes that are not UTF-8 (replaced by U+FFFD).
    static func percentDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return text }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The value of one hexadecimal digit, nil for another byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The gRPC status of an HTTP status that is not 200 on a response without `grpc-status` (gRPC's table).
    static func code(forHTTPStatus status: Int) -> Code {
        switch status {
        case 400: .internal
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404: .unimplemented
        case 429, 502, 503, 504: .unavailable
        default: .unknown
        }
    }
}
