import APITestSupport
public import Foundation

/// The custom metadata of a gRPC call: ordered key-value pairs, text or binary (`-bin` keys, sent in base64).
public struct GRPCMetadata: Sendable, Hashable {
    /// A metadata value.
    public enum Value: Sendable, Hashable {
        /// Printable ASCII text (0x20 to 0x7E).
        case text(String)
        /// Bytes, for a key ending in `-bin`.
        case binary(Data)
    }

    /// One pair.
    public struct Entry: Sendable, Hashable {
        /// The key, lower-case (`x-request-id`, `trace-bin`).
        public var key: String
        /// The value.
        public var value: Value

        /// A pair of `key` and `value`.
        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The pairs, in order, repeated keys kept.
    public var entries: [Entry]

    /// Metadata of `entries`.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// Adds a pair.
    public mutating func add(_ key: String, _ value: Value) {
        entries.append(Entry(key: key, value: value))
    }

    /// The metadata in response `fields` (headers or trailers): keys ending in `-bin` decoded from base64 (a value
    /// that is not base64 is kept as text), and the fields of HTTP and of gRPC itself left out (`content-type`,
    /// `grpc-status`, ...; the status is in `GRPCStatus`).
    public init(responseFields fields: HTTPHeaders) {
        var entries: [Entry] = []
        for field in fields {
            let key = field.name.lowercased()
            if Self.isTransportField(key) { continue }
            if key.hasSuffix("-bin"), let bytes = Self.decodeBase64(field.value) {
                entries.append(Entry(key: key, value: .binary(bytes)))
            } else {
                entries.append(Entry(key: key, value: .text(field.value)))
            }
        }
        self.entries = entries
    }

    /// The values of `key` (any case), in order.
    public func values(for key: String) -> [Value] {
        let key = key.lowercased()
        return entries.filter { $0.key == key }.map(\.value)
    }

    /// Whether `key` (lower-case) is a field of HTTP or of gRPC's protocol rather than the application's metadata
    /// (`GRPCMetadataKey`, the rule the suite's check uses too).
    static func isTransportField(_ key: String) -> Bool { GRPCMetadataKey.isTransportField(key) }

    /// Bytes of base64 text, padded or not (gRPC sends it unpadded); nil when it is not base64.
    static func decodeBase64(_ text: String) -> Data? {
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.contains("-") || text.contains("_") {
            text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        }
        let remainder = text.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { text += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: text)
    }

    // MARK: - Request fields

    /// The header fields of the request metadata: keys checked and lower-cased, binary values in base64.
    func requestFields() throws(GRPCError) -> [(String, String)] {
        var fields: [(String, String)] = []
        for entry in entries {
            let key = entry.key.lowercased()
            if let problem = Self.keyProblem(key) {
                throw GRPCError(.invalidMetadata(key: entry.key, problem: problem))
            }
            switch entry.value {
            case .text(let text):
                if key.hasSuffix("-bin") {
                    // A `-bin` key given text: its UTF-8 bytes are the value.
                    fields.append((key, Data(text.utf8).base64EncodedString()))
                } else {
                    guard text.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
                        throw GRPCError(.invalidMetadata(key: key, problem: .nonPrintableText))
                    }
                    fields.append((key, text))
                }
            case .binary(let bytes):
                guard key.hasSuffix("-bin") else {
                    throw GRPCError(.invalidMetadata(key: key, problem: .binaryWithoutBinSuffix))
                }
                fields.append((key, bytes.base64EncodedString()))
            }
        }
        return fields
    }

    /// What is wrong with a request metadata key (lower-case), nil when nothing is: `GRPCMetadataKey`'s rule, the
    /// one the suite's load-time check uses.
    static func keyProblem(_ key: String) -> GRPCError.MetadataProblem? {
        switch GRPCMetadataKey.problem(key) {
        case nil: nil
        case .empty: .emptyKey
        case .invalidCharacter: .invalidKeyCharacter
        case .reserved: .reservedKey
        }
    }
}
