import APITestJSON
import Testing

@testable import APITestProtobuf

/// Every error of the codec: typed, with the JSON path of the value concerned and did-you-mean where a near name
/// exists; hostile bytes end in an error, never a trap.
@Suite struct ProtoCodecErrorTests {
    static let schema: ProtoSchema? = try? ProtoSchema(fileDescriptorSet: ProtobufOracle.acmeDescriptorSet())

    func schema() throws -> ProtoSchema { try #require(Self.schema, "the test schema did not compile") }

    func encodingError(_ json: JSONValue, as type: String = "acme.codec.User") throws -> ProtobufError? {
        do {
            _ = try schema().encode(json, as: type)
            return nil
        } catch let error as ProtobufError {
            return error
        }
    }

    func decodingError(_ bytes: [UInt8], as type: String, limits: ProtoCodecLimits = .standard) throws -> ProtobufError?
    {
        do {
            _ = try schema().decode(bytes, as: type, limits: limits)
            return nil
        } catch let error as ProtobufError {
            return error
        }
    }

    // MARK: - JSON mapping

    @Test func anUnknownEnumNameNamesItsPathAndANearName() throws {
        let error = try encodingError(["user": ["roles": ["ADMIN", "EDITOR", "ADMN"]]], as: "acme.codec.Envelope")
        #expect(error?.path == "$.user.roles[2]")
        #expect(
            error?.description == "$.user.roles[2]: unknown enum value 'ADMN' of acme.codec.Role; did you mean 'ADMIN'?"
        )
        #expect(
            try encodingError(["status": "GONE"])?.kind
                == .unknownEnumValue(
                    value: "GONE", enumName: "acme.codec.User.Status", suggestion: nil))
    }

    @Test func anUnknownFieldGetsDidYouMean() throws {
        let error = try encodingError(["home": ["citName": "x"]])
        #expect(error?.path == "$.home.citName")
        #expect(
            error?.kind == .unknownField(name: "citName", message: "acme.codec.User.Address", suggestion: "cityName"))
        #expect(error?.description.hasSuffix("did you mean 'cityName'?") == true)
        #expect(
            try encodingError(["userID": "x"])?.kind
                == .unknownField(
                    name: "userID", message: "acme.codec.User", suggestion: "userId"))
    }

    @Test func twoMembersOfAOneofAreAnError() throws {
        let error = try encodingError(["email": "a@example.com", "phone": "1"])
        #expect(error?.kind == .oneofConflict(oneof: "contact", first: "email", second: "phone"))
        #expect(error?.path == "$.phone")
        // null leaves a member unset, so it is no conflict.
        #expect(try encodingError(["email": "a@example.com", "phone": nil]) == nil)
    }

    @Test func aFieldGivenUnderBothNamesIsAnError() throws {
        #expect(try encodingError(["userId": "a", "user_id": "b"])?.kind == .duplicateField(name: "user_id"))
    }

    @Test func valuesOfTheWrongTypeOrRange() throws {
        #expect(try encodingError(["age": true])?.kind == .typeMismatch(expected: "an integer (int32)", got: "boolean"))
        #expect(try encodingError(["age": "x"])?.kind == .invalidNumber(value: "x", type: "int32"))
        #expect(try encodingError(["age": 2_147_483_648])?.kind == .outOfRange(value: "2147483648", type: "int32"))
        #expect(try encodingError(["age": 1.5])?.kind == .outOfRange(value: "1.5", type: "int32"))
        #expect(try encodingError(["roles": "ADMIN"])?.kind == .typeMismatch(expected: "an array", got: "string"))
        #expect(try encodingError(["home": "x"])?.path == "$.home")
        #expect(try encodingError(["scalars": ["fUint32": -1]])?.path == "$.scalars.fUint32")
        #expect(
            try encodingError(["scalars": ["fInt64": "9223372036854775808"]])?.kind
                == .outOfRange(
                    value: "\"9223372036854775808\"", type: "int64"))
        #expect(try encodingError(["scalars": ["fUint64": "18446744073709551616"]]) != nil)
        #expect(try encodingError(["scalars": ["fFloat": 1e39]])?.kind == .outOfRange(value: "1e+39", type: "float"))
        #expect(try encodingError(["scalars": ["fBytes": "not base64!"]])?.kind == .invalidBase64)
        #expect(
            try encodingError(["scalars": ["fBool": "true"]])?.kind
                == .typeMismatch(
                    expected: "a boolean", got: "string"))
        #expect(try encodingError(["counters": ["a": "b"]])?.path == "$.counters['a']")
        #expect(try encodingError(["byNumber": ["x": [:]]])?.kind == .invalidNumber(value: "x", type: "int32"))
        #expect(try encodingError(["flags": ["yes": "x"]])?.path == "$.flags['yes']")
        #expect(try encodingError(["addresses": [nil]])?.path == "$.addresses[0]")
        #expect(
            try encodingError([1, 2])?.kind == .typeMismatch(expected: "an object (acme.codec.User)", got: "array"))
    }

    @Test func wellKnownValuesThatDoNotParse() throws {
        let timestamp = try encodingError(["createdAt": "2020-13-01T00:00:00Z"], as: "acme.codec.WellKnown")
        #expect(timestamp?.path == "$.createdAt")
        guard case .invalidWellKnownValue(let type, _)? = timestamp?.kind else {
            Issue.record("\(String(describing: timestamp))")
            return
        }
        #expect(type == "Timestamp")
        #expect(try encodingError(["ttl": "1m"], as: "acme.codec.WellKnown")?.path == "$.ttl")
        #expect(try encodingError(["ttl": "315576000001s"], as: "acme.codec.WellKnown") != nil)
        #expect(try encodingError(["mask": "user_id"], as: "acme.codec.WellKnown")?.path == "$.mask")
        #expect(try encodingError(["empty": ["a": 1]], as: "acme.codec.WellKnown")?.path == "$.empty.a")
        #expect(try encodingError(["anything": ["n": .double(.infinity)]], as: "acme.codec.WellKnown") != nil)
    }

    @Test func anAnyNamesALoadedType() throws {
        let unknown = try encodingError(
            ["payload": ["@type": "type.googleapis.com/acme.codec.Usr"]], as: "acme.codec.WellKnown")
        #expect(
            unknown?.kind
                == .unresolvedAnyType(url: "type.googleapis.com/acme.codec.Usr", suggestion: "acme.codec.User"))
        #expect(unknown?.path == "$.payload['@type']")
        #expect(
            try encodingError(["payload": ["userId": "x"]], as: "acme.codec.WellKnown")?.kind
                == .unresolvedAnyType(
                    url: "", suggestion: nil))
        let inner = try encodingError(
            ["payload": ["@type": "type.googleapis.com/acme.codec.User", "userid": "x"]], as: "acme.codec.WellKnown")
        #expect(inner?.kind == .unknownField(name: "userid", message: "acme.codec.User", suggestion: "userId"))
    }

    @Test func aClosedEnumRefusesNumbersItDoesNotDeclare() throws {
        #expect(
            try encodingError(["id": 1, "kind": 5], as: "acme.legacy.Legacy")?.kind
                == .unknownEnumValue(
                    value: "5", enumName: "acme.legacy.Legacy.Kind", suggestion: nil))
        #expect(try encodingError(["id": 1, "kind": 2], as: "acme.legacy.Legacy") == nil)
    }

    @Test func groupsAreRefusedEitherWay() throws {
        let encoding = try encodingError(["item": ["a": 1]], as: "acme.legacy.WithGroup")
        #expect(encoding?.kind == .groupsUnsupported("field 'item' of acme.legacy.WithGroup"))
        // Field 2, wire type 3 (start group), then field 3 = 1, then end group.
        let decoding = try decodingError([0x13, 0x18, 0x01, 0x14], as: "acme.legacy.WithGroup")
        #expect(decoding?.kind == .groupsUnsupported("field 'item' of acme.legacy.WithGroup"))
        // An undeclared field encoded as a group is refused too (skipping it would need the group's end).
        #expect(try decodingError([0x7B, 0x7C], as: "acme.legacy.WithGroup")?.kind == .groupsUnsupported("field 15"))
    }

    // MARK: - Untrusted bytes

    @Test func hostileBytesEndInErrors() throws {
        #expect(try decodingError([0x0A, 0x05, 0x61], as: "acme.codec.User")?.kind == .truncated)
        #expect(
            try decodingError([0x18] + [UInt8](repeating: 0xFF, count: 10) + [0x01], as: "acme.codec.User")?.kind
                == .varintOverflow)
        #expect(try decodingError([0x00], as: "acme.codec.User")?.kind == .invalidTag(0))
        let utf8 = try decodingError([0x0A, 0x02, 0xC3, 0x28], as: "acme.codec.User")
        #expect(utf8?.kind == .invalidUTF8(field: "user_id"))
        // A Timestamp outside its range cannot be written as JSON.
        var seconds = ProtoWireWriter()
        seconds.writeTag(1, .varint)
        seconds.writeVarint(253_402_300_800)
        var year10000 = ProtoWireWriter()
        year10000.writeTag(1, .lengthDelimited)
        year10000.writeLengthDelimited(seconds.bytes)
        #expect(try decodingError(year10000.bytes, as: "acme.codec.WellKnown")?.path == "$.createdAt")
    }

    @Test func nestingDeeperThanTheBudgetIsRefused() throws {
        var bytes: [UInt8] = []
        for _ in 0..<150 {
            var writer = ProtoWireWriter()
            writer.writeTag(4, .lengthDelimited)
            writer.writeLengthDelimited(bytes)
            bytes = writer.bytes
        }
        #expect(try decodingError(bytes, as: "acme.codec.Envelope")?.kind == .tooDeep(limit: 100))
        var json: JSONValue = [:]
        for _ in 0..<150 { json = ["inner": json] }
        #expect(try encodingError(json, as: "acme.codec.Envelope")?.kind == .tooDeep(limit: 100))
        var list: JSONValue = []
        for _ in 0..<150 { list = [list] }
        #expect(try encodingError(["anything": list], as: "acme.codec.WellKnown")?.kind == .tooDeep(limit: 100))
        // Within the budget, both ways.
        var shallow: JSONValue = ["user": ["userId": "x"]]
        for _ in 0..<50 { shallow = ["inner": shallow] }
        let encoded = try schema().encode(shallow, as: "acme.codec.Envelope")
        #expect(try schema().decode(encoded, as: "acme.codec.Envelope") == shallow)
    }

    @Test func inputBeyondTheSizeLimitIsRefused() throws {
        let bytes = try schema().encode(["userId": .string(String(repeating: "x", count: 100))], as: "acme.codec.User")
        let limits = ProtoCodecLimits(maximumSize: 50)
        #expect(try decodingError(bytes, as: "acme.codec.User", limits: limits)?.kind == .tooLarge(limit: 50))
        #expect(throws: ProtobufError(.tooLarge(limit: 50))) {
            try schema().encode(
                ["userId": .string(String(repeating: "x", count: 100))], as: "acme.codec.User", limits: limits)
        }
    }

    // MARK: - Wire rules

    @Test func unknownFieldsAreSkippedAndBothRepeatedEncodingsRead() throws {
        var writer = ProtoWireWriter()
        writer.writeTag(99, .varint)
        writer.writeVarint(5)
        writer.writeTag(98, .lengthDelimited)
        writer.writeLengthDelimited([1, 2, 3])
        writer.writeTag(97, .fixed32)
        writer.writeFixed32(1)
        writer.writeTag(1, .lengthDelimited)
        writer.writeLengthDelimited(Array("id".utf8))
        // scores (packed by default) written unpacked, then packed; unpacked (packed = false) written packed.
        writer.writeTag(14, .varint)
        writer.writeVarint(7)
        writer.writeTag(14, .lengthDelimited)
        writer.writeLengthDelimited([0x08, 0x09])
        writer.writeTag(20, .lengthDelimited)
        writer.writeLengthDelimited([0x01, 0x02])
        // user_id with the wire type of a varint: an unknown field, skipped as the protobuf libraries do.
        writer.writeTag(1, .varint)
        writer.writeVarint(1)
        let decoded = try schema().decode(writer.bytes, as: "acme.codec.User")
        #expect(decoded == ["userId": "id", "scores": [7, 8, 9], "unpacked": [-1, 1]])
    }

    @Test func theLastOneofMemberAndTheLastScalarWinAndMessagesMerge() throws {
        var writer = ProtoWireWriter()
        writer.writeTag(9, .lengthDelimited)
        writer.writeLengthDelimited(Array("a@example.com".utf8))
        writer.writeTag(10, .lengthDelimited)
        writer.writeLengthDelimited(Array("123".utf8))
        writer.writeTag(13, .varint)
        writer.writeVarint(1)
        writer.writeTag(13, .varint)
        writer.writeVarint(2)
        writer.writeTag(4, .lengthDelimited)
        writer.writeLengthDelimited([0x0A, 0x01, 0x61])
        writer.writeTag(4, .lengthDelimited)
        writer.writeLengthDelimited([0x12, 0x01, 0x62])
        let decoded = try schema().decode(writer.bytes, as: "acme.codec.User")
        #expect(decoded == ["home": ["street": "a", "cityName": "b"], "phone": "123", "status": "BLOCKED"])
    }

    @Test func proto2DecodesWithPresence() throws {
        // id = 0 and zero = 0 are present, so shown; name is absent, so its default is not shown.
        let decoded = try schema().decode([0x08, 0x00, 0x30, 0x00, 0x18, 0x01, 0x18, 0x02], as: "acme.legacy.Legacy")
        #expect(decoded == ["id": 0, "values": [1, 2], "zero": 0])
    }
}
