package import APITestJSON
import APITestSupport

// MARK: - Codec

extension ProtoSchema {
    /// The JSON mapping of `bytes` as a message of `messageName` (a full name), or a typed error naming the JSON
    /// path of the value that does not decode. Never traps on any bytes.
    package func decode(
        _ bytes: [UInt8], as messageName: String, limits: ProtoCodecLimits = .standard
    ) throws(ProtobufError) -> JSONValue {
        guard bytes.count <= limits.maximumSize else { throw ProtobufError(.tooLarge(limit: limits.maximumSize)) }
        let message = try message(named: messageName)
        return try ProtoBinaryDecoder(schema: self, limits: limits).decode(
            bytes[...], as: message, path: ProtoJSONPath.root, depth: 0)
    }

    /// The wire encoding of `json` (the JSON mapping) as a message of `messageName`, or a typed error with the
    /// JSON path of the value that does not fit (`$.user.roles[2]: unknown enum value 'ADMN' of acme.Role; ...`).
    package func encode(
        _ json: JSONValue, as messageName: String, limits: ProtoCodecLimits = .standard
    ) throws(ProtobufError) -> [UInt8] {
        let message = try message(named: messageName)
        var writer = ProtoWireWriter()
        try ProtoJSONEncoder(schema: self, limits: limits).encode(
            json, as: message, path: ProtoJSONPath.root, depth: 0, into: &writer)
        guard writer.bytes.count <= limits.maximumSize else {
            throw ProtobufError(.tooLarge(limit: limits.maximumSize))
        }
        return writer.bytes
    }

    /// The message an `Any`'s type URL names: the full name after the URL's last `/`.
    func anyMessage(url: String, path: String) throws(ProtobufError) -> ProtoMessageDescriptor {
        guard let slash = url.lastIndex(of: "/") else {
            throw ProtobufError(.unresolvedAnyType(url: url, suggestion: nil), path: path)
        }
        let name = String(url[url.index(after: slash)...])
        guard let message = messages[name] else {
            throw ProtobufError(
                .unresolvedAnyType(url: url, suggestion: Suggestion.closest(to: name, amongUnordered: messages.keys)),
                path: path)
        }
        return message
    }
}
