import APITestJSON
import APITestSuiteWriting
import Testing

@testable import APITestImport

/// No file makes the importers crash: every value of the fixtures, replaced in turn by a value of every other JSON
/// type, gives either a located error or a suite that renders.
struct ImportRobustnessTests {
    /// The replacements tried at every place.
    static let replacements: [JSONValue] = [.null, 7, "text", [[:]], ["key": 1]]

    /// `value` with the node at `path` (indexes and keys from the root) replaced by `replacement`.
    static func replacing(_ value: JSONValue, at path: ArraySlice<Either>, with replacement: JSONValue) -> JSONValue {
        guard let step = path.first else { return replacement }
        switch (value, step) {
        case (.array(var items), .index(let index)):
            items[index] = replacing(items[index], at: path.dropFirst(), with: replacement)
            return .array(items)
        case (.object(var object), .key(let key)):
            object[key] = replacing(object[key] ?? .null, at: path.dropFirst(), with: replacement)
            return .object(object)
        default:
            return value
        }
    }

    /// A step of a path: an array index or an object key.
    enum Either {
        case index(Int)
        case key(String)
    }

    /// Every path of `value`, root first.
    static func paths(_ value: JSONValue, prefix: [Either] = []) -> [[Either]] {
        var result = [prefix]
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() { result += paths(item, prefix: prefix + [.index(index)]) }
        case .object(let object):
            for member in object.members { result += paths(member.value, prefix: prefix + [.key(member.key)]) }
        default:
            break
        }
        return result
    }

    /// Runs `body` on every mutation of the fixture at `path` (after `select`, which may keep a part of it).
    func mutations(
        of path: String, select: (JSONValue) -> JSONValue = { $0 }, _ body: ([UInt8]) -> Void
    ) throws {
        let original = select(try JSONParser.parse(PostmanFixtures.bytes(path)))
        for place in Self.paths(original) {
            for replacement in Self.replacements {
                body(JSONWriter.bytes(Self.replacing(original, at: place[...], with: replacement)))
            }
        }
    }

    @Test(arguments: [
        "postman/apitest-demo.postman_collection.json", "newman/inherited-entities.postman_collection.json",
        "newman/sample-collection.json",
    ])
    func postmanCollections(path: String) throws {
        var suites = 0
        var errors = 0
        try mutations(of: path) { bytes in
            do {
                let collection = try PostmanCollectionDecoder(file: "c.json").decode(bytes)
                _ = SuiteDocumentRenderer(suite: PostmanImporter(collection: collection).suite())
                    .render()
                suites += 1
            } catch let error as JSONSourceError {
                #expect(error.file == "c.json" && !error.message.isEmpty)
                errors += 1
            } catch {
                Issue.record("not a located error: \(error)")
            }
        }
        #expect(suites > 0 && errors > 0)
    }

    @Test func harArchives() throws {
        var suites = 0
        // Four entries of the fixture (a document with cookies, a call with a credential, a body, no response): every
        // kind of value a HAR entry holds, at a quarter of the cost.
        let select: (JSONValue) -> JSONValue = { archive in
            guard case .object(var root) = archive, case .object(var log)? = root["log"],
                case .array(let entries)? = log["entries"]
            else { return archive }
            log["entries"] = .array([0, 4, 6, 13].map { entries[$0] })
            root["log"] = .object(log)
            return .object(root)
        }
        try mutations(of: "har/demo.har", select: select) { bytes in
            guard let archive = try? HARArchive.decode(bytes, file: "h.har") else { return }
            _ = SuiteDocumentRenderer(suite: HARImporter(archive: archive, file: "h.har").suite())
                .render()
            suites += 1
        }
        #expect(suites > 0)
    }

    @Test func environments() throws {
        try mutations(of: "newman/globals-env-data-files.postman_environment.json") { bytes in
            _ = try? PostmanEnvironment.decode(bytes, file: "e.json")
        }
    }
}

extension ImportRobustnessTests {
    /// Every prefix of the scripts of the demo collection (cut anywhere: in a string, a regular expression, a comment,
    /// a chain) translates, listing what it cannot read.
    @Test func everyPrefixOfAScriptTranslates() throws {
        let collection = try PostmanCollectionDecoder(file: "c.json").decode(
            PostmanFixtures.bytes("postman/apitest-demo.postman_collection.json"))
        var lines: [String] = []
        func collect(_ items: [PostmanItem]) {
            for item in items {
                switch item {
                case .folder(let folder): collect(folder.items)
                case .request(let request): lines += request.events.flatMap(\.lines)
                }
            }
        }
        collect(collection.items)
        let script = lines.joined(separator: "\n") + "\n/* open comment\n'open string\n/open regex"
        var count = 0
        for end in script.indices {
            let prefix = String(script[..<end])
            let result = PostmanScriptTranslator.translate(
                prefix.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            count += result.checks.count
        }
        #expect(count > 0)
    }
}
