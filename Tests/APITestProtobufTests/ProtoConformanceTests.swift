import APITestJSON
import APITestProtobuf
import Foundation
import Testing

/// The JSON inputs of protobuf's own conformance suite (`Fixtures/conformance`, with its licence) on its
/// `TestAllTypesProto3`, judged by Python's protobuf: what Python accepts, the codec reads to the same message both
/// ways; what Python refuses, the codec refuses too.
@Suite struct ProtoConformanceTests {
    static let type = "protobuf_test_messages.proto3.TestAllTypesProto3"

    static func cases() throws -> (valid: [(name: String, json: JSONValue)], invalid: [(name: String, text: String)]) {
        let url = ProtobufOracle.fixtures.appendingPathComponent("conformance/json_cases.json")
        let document = try JSONParser.parse(Array(try Data(contentsOf: url)))
        let valid = (document["valid"]?.arrayValue ?? []).compactMap { item -> (String, JSONValue)? in
            guard let name = item["name"]?.stringValue, let json = item["json"] else { return nil }
            return (name, json)
        }
        let invalid = (document["invalid"]?.arrayValue ?? []).compactMap { item -> (String, String)? in
            guard let name = item["name"]?.stringValue, let text = item["text"]?.stringValue else { return nil }
            return (name, text)
        }
        return (valid, invalid)
    }

    @Test func validInputsReadTheSameAsPythonBothWays() throws {
        let set = try ProtobufOracle.conformanceDescriptorSet()
        let schema = try ProtoSchema(fileDescriptorSet: set)
        let valid = try Self.cases().valid
        #expect(valid.count >= 150)
        let answers = try ProtobufOracle.ask(descriptorSet: set, encode: valid.map { (Self.type, $0.json) }).encoded
        var accepted: [(name: String, json: JSONValue, expected: JSONValue)] = []
        var mismatches: [String] = []
        for (index, answer) in answers.enumerated() {
            guard case .encoded(let binary, let expected) = answer else { continue }
            let name = valid[index].name
            accepted.append((name, valid[index].json, expected))
            do {
                let decoded = try schema.decode(binary, as: Self.type)
                if decoded != expected {
                    mismatches.append(
                        "\(name): decoded \(JSONWriter.string(decoded)), Python \(JSONWriter.string(expected))")
                }
            } catch {
                mismatches.append("\(name): decoding failed: \(error)")
            }
        }
        #expect(accepted.count >= 140, "Python accepted only \(accepted.count) of \(valid.count)")
        var encoded: [(type: String, binary: [UInt8])] = []
        var encodedNames: [(name: String, expected: JSONValue)] = []
        for item in accepted {
            do {
                encoded.append((Self.type, try schema.encode(item.json, as: Self.type)))
                encodedNames.append((item.name, item.expected))
            } catch {
                mismatches.append("\(item.name): encoding failed: \(error)")
            }
        }
        let parsed = try ProtobufOracle.ask(descriptorSet: set, parse: encoded).parsed
        for (index, answer) in parsed.enumerated() where answer != .parsed(encodedNames[index].expected) {
            mismatches.append("\(encodedNames[index].name): Python read the bytes encoded here as \(answer)")
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    }

    @Test func inputsPythonRefusesAreRefused() throws {
        let set = try ProtobufOracle.conformanceDescriptorSet()
        let schema = try ProtoSchema(fileDescriptorSet: set)
        var parsedCases: [(name: String, json: JSONValue)] = []
        for (name, text) in try Self.cases().invalid {
            guard let json = try? JSONParser.parse(text) else { continue }
            parsedCases.append((name, json))
        }
        let answers = try ProtobufOracle.ask(descriptorSet: set, encode: parsedCases.map { (Self.type, $0.json) })
            .encoded
        var refused = 0
        var accepted: [String] = []
        for (index, answer) in answers.enumerated() {
            guard case .failed = answer else { continue }
            refused += 1
            if let bytes = try? schema.encode(parsedCases[index].json, as: Self.type) {
                accepted.append("\(parsedCases[index].name) (\(bytes.count) bytes)")
            }
        }
        #expect(refused >= 50, "Python refused only \(refused)")
        #expect(accepted.isEmpty, "accepted what Python refuses:\n\(accepted.joined(separator: "\n"))")
    }
}
