import APITestJSON
import Foundation
import Testing

@testable import APITestHTTP

@Suite struct PropertyListResponseSerializerTests {
    /// A property list with every value type, written by Foundation in the requested format.
    func plist(_ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        let object: [String: Any] = [
            "name": "apitest",
            "count": 42,
            "ratio": 0.25,
            "enabled": true,
            "disabled": false,
            "created": Date(timeIntervalSince1970: 1_714_564_800), // 2024-05-01T12:00:00Z
            "blob": Data([0xDE, 0xAD, 0xBE, 0xEF]),
            "items": [["id": 1, "tag": "a"], ["id": 2, "tag": "b"]],
        ]
        return try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
    }

    func decode(_ data: Data, contentType: String? = "application/x-plist") throws -> JSONValue {
        let decoded = try PropertyListResponseSerializer().decode(
            ResponseFixtures.response(data, contentType: contentType))
        guard case .propertyList(let value) = decoded else { throw JSONPathError(message: "not a plist", offset: 0) }
        return value
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func decodesToJSONValues(format: PropertyListSerialization.PropertyListFormat) throws {
        let value = try decode(try plist(format))
        #expect(value["name"] == "apitest")
        #expect(value["count"] == .integer(42))
        #expect(value["ratio"] == .double(0.25))
        #expect(value["enabled"] == .bool(true))
        #expect(value["disabled"] == .bool(false))
        #expect(value["created"] == "2024-05-01T12:00:00Z")
        #expect(value["blob"] == "3q2+7w==")
        #expect(
            value.objectValue?.keys == ["blob", "count", "created", "disabled", "enabled", "items", "name", "ratio"])
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func jsonPathWorksOnPropertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        let value = try decode(try plist(format))
        #expect(try JSONPath("$.items[1].tag").query(value) == ["b"])
        #expect(try JSONPath("$.items[?@.id == 1].tag").query(value) == ["a"])
        #expect(try JSONPath("$.enabled").query(value) == [true])
    }

    @Test func binaryPlistIsSniffedWithoutContentType() throws {
        let serializer = PropertyListResponseSerializer()
        #expect(serializer.accepts(ResponseFixtures.response(try plist(.binary))))
        #expect(
            serializer.accepts(ResponseFixtures.response(try plist(.binary), contentType: "application/octet-stream")))
        #expect(!serializer.accepts(ResponseFixtures.response(try plist(.xml))))
        #expect(serializer.accepts(ResponseFixtures.response(try plist(.xml), contentType: "application/x-plist")))
    }

    @Test func malformedPropertyListsAreErrors() throws {
        let xml = Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key></plist>".utf8)
        let xmlError = try #require(
            ResponseFixtures.decodeError(
                PropertyListResponseSerializer(), ResponseFixtures.response(xml, contentType: "application/x-plist")))
        #expect(xmlError.decoder == "plist")
        #expect(xmlError.reason.hasPrefix("not a valid XML property list"))

        var binary = try plist(.binary)
        binary = binary.prefix(binary.count - 10)
        let binaryError = try #require(
            ResponseFixtures.decodeError(PropertyListResponseSerializer(), ResponseFixtures.response(binary)))
        #expect(binaryError.reason.hasPrefix("not a valid binary property list"))

        let empty = try #require(
            ResponseFixtures.decodeError(
                PropertyListResponseSerializer(), ResponseFixtures.response(Data(), contentType: "application/x-plist"))
        )
        #expect(empty.description == "plist decoder: byte 0: the body is empty, not a property list")
    }
}
