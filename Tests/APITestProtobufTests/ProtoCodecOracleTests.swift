import APITestJSON
import APITestProtobuf
import Testing

/// The codec against Google's protobuf runtime (Python): for each message, Python's binary encoding decodes here to
/// the JSON `MessageToJson` writes, and the bytes encoded here parse in Python to the same message.
@Suite struct ProtoCodecOracleTests {
    /// Messages of the test schema covering every scalar type, enums, nested and repeated messages, maps, oneofs,
    /// optional fields and the well-known types.
    static let cases: [(type: String, json: JSONValue)] = [
        (
            "acme.codec.Scalars",
            try! JSONParser.parse(
                """
                {"fDouble": 1.5, "fFloat": 0.1, "fInt32": -2147483648, "fInt64": "-9223372036854775808",
                 "fUint32": 4294967295, "fUint64": "18446744073709551615", "fSint32": -7, "fSint64": "-9000000000",
                 "fFixed32": 4000000000, "fFixed64": "12345678901234567890", "fSfixed32": -5,
                 "fSfixed64": "-6000000000000", "fBool": true, "fString": "héllo \\u0000 ✓", "fBytes": "AAH/+w=="}
                """)
        ),
        (
            "acme.codec.Scalars",
            try! JSONParser.parse(
                #"{"fDouble": "NaN", "fFloat": "-Infinity"}"#)
        ),
        (
            "acme.codec.Scalars",
            try! JSONParser.parse(
                #"{"fDouble": "Infinity", "fFloat": 3.4028234e38, "fInt64": 42, "fUint64": "7", "fBytes": "-_8"}"#)
        ),
        ("acme.codec.Scalars", try! JSONParser.parse(#"{"fDouble": -0.0, "fFloat": 1e-45, "fInt32": "12"}"#)),
        ("acme.codec.Scalars", try! JSONParser.parse(#"{"fDouble": 0, "fInt32": 0, "fString": "", "fBool": false}"#)),
        (
            "acme.codec.User",
            try! JSONParser.parse(
                """
                {"userId": "u-1", "nick": "Ann", "roles": ["ADMIN", "VIEWER", 2], "home": {"street": "Main", "cityName": "X"},
                 "addresses": [{"street": "a"}, {}, {"cityName": "c"}], "counters": {"a": "1", "b": -2, "": "0"},
                 "byNumber": {"1": {"street": "one"}, "-5": {}}, "flags": {"true": "yes", "false": ""},
                 "email": "a@example.com", "age": 0, "status": "BLOCKED", "scores": [1, -1, 2147483647, 0],
                 "big": ["-1", "9223372036854775807"], "tags": ["x", "", "z"], "ratios": [0.5, "NaN", -1e300],
                 "balance": {"currency": "EUR", "units": "10", "nanos": 500000000},
                 "scalars": {"fSint64": "-1"}, "unpacked": [-1, 0, 1], "roleById": {"18446744073709551615": "EDITOR"},
                 "manyScalars": [{}, {"fBool": true}], "nicknameHint": "", "floats": [1.25, -0.0], "bools": [true, false]}
                """)
        ),
        ("acme.codec.User", try! JSONParser.parse(#"{"user_id": "snake", "display_name": "orig", "phone": "123"}"#)),
        ("acme.codec.User", try! JSONParser.parse(#"{"postal": {}, "status": 7, "roles": [99]}"#)),
        (
            "acme.codec.WellKnown",
            try! JSONParser.parse(
                """
                {"createdAt": "1972-01-01T10:00:20.021Z", "ttl": "-1.000340012s",
                 "attributes": {"a": 1, "b": [true, null, "s", {"c": {}}], "d": null},
                 "anything": {"x": [1.5, "y"]}, "list": [1, "two", null, [], {}], "nothing": null,
                 "wDouble": 1.5, "wFloat": "Infinity", "wInt64": "-5", "wUint64": "5", "wInt32": 0, "wUint32": 7,
                 "wBool": false, "wString": "", "wBytes": "AQI=", "mask": "userId,home.cityName", "empty": {},
                 "payload": {"@type": "type.googleapis.com/acme.codec.User", "userId": "in-any", "roles": ["EDITOR"]},
                 "payloads": [
                   {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "3s"},
                   {"@type": "type.googleapis.com/google.protobuf.Struct", "value": {"k": "v"}},
                   {"@type": "type.googleapis.com/acme.common.Money", "units": "1"},
                   {"@type": "type.googleapis.com/google.protobuf.Empty"}
                 ],
                 "times": ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00.000001Z"],
                 "values": {"n": null, "s": "t", "o": {"p": [1]}}, "valueList": [null, 2, "x", false]}
                """)
        ),
        (
            "acme.codec.WellKnown",
            try! JSONParser.parse(
                #"{"ttl": "0.5s", "anything": null, "createdAt": "2020-02-29T12:00:00+01:30", "wString": "x"}"#)
        ),
        ("acme.codec.WellKnown", try! JSONParser.parse(#"{"ttl": "315576000000s", "anything": "text", "mask": ""}"#)),
        (
            "acme.codec.Envelope",
            try! JSONParser.parse(
                #"{"inner": {"inner": {"user": {"userId": "deep"}}}, "users": [{"email": "x"}, {"phone": "y"}]}"#)
        ),
        (
            "acme.legacy.Legacy",
            try! JSONParser.parse(
                #"{"id": 0, "name": "unnamed", "values": [1, 2], "kind": "SECOND", "packedValues": [3, 4], "zero": 0}"#)
        ),
        ("acme.legacy.Legacy", try! JSONParser.parse(#"{"id": 7}"#)),
    ]

    @Test func pythonsBytesDecodeToPythonsJSON() throws {
        let set = try ProtobufOracle.acmeDescriptorSet()
        let schema = try ProtoSchema(fileDescriptorSet: set)
        let answers = try ProtobufOracle.ask(descriptorSet: set, encode: Self.cases).encoded
        try #require(answers.count == Self.cases.count)
        for (index, answer) in answers.enumerated() {
            guard case .encoded(let binary, let expected) = answer else {
                Issue.record("case \(index): Python refused it: \(answer)")
                continue
            }
            let decoded = try schema.decode(binary, as: Self.cases[index].type)
            #expect(
                decoded == expected, "case \(index): \(JSONWriter.string(decoded)) != \(JSONWriter.string(expected))")
        }
    }

    @Test func bytesEncodedHereParseInPythonToTheSameMessage() throws {
        let set = try ProtobufOracle.acmeDescriptorSet()
        let schema = try ProtoSchema(fileDescriptorSet: set)
        var encoded: [(type: String, binary: [UInt8])] = []
        for (type, json) in Self.cases {
            encoded.append((type, try schema.encode(json, as: type)))
        }
        let oracle = try ProtobufOracle.ask(descriptorSet: set, encode: Self.cases, parse: encoded)
        for index in Self.cases.indices {
            guard case .encoded(_, let expected) = oracle.encoded[index],
                case .parsed(let parsed) = oracle.parsed[index]
            else {
                Issue.record("case \(index): \(oracle.encoded[index]) / \(oracle.parsed[index])")
                continue
            }
            #expect(parsed == expected, "case \(index): \(JSONWriter.string(parsed)) != \(JSONWriter.string(expected))")
        }
    }
}
