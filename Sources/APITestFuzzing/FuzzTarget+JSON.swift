import APITestJSON

// MARK: - JSON and JSONPath

extension FuzzTarget {
    /// The document queries run over: nested, with every type, escaped and non-ASCII member names.
    static let jsonPathDocument: JSONValue = {
        let text = """
            {"store": {"book": [
              {"category": "reference", "author": "Nigel Rees", "title": "Sayings", "price": 8.95, "isbn": null},
              {"category": "fiction", "author": "Évelyn", "title": "Sword", "price": 12, "tags": ["a", "b"]},
              {"category": "fiction", "price": 1e300, "n": -9223372036854775808, "big": 123456789012345678901234567890}
            ], "bicycle": {"color": "red", "price": 19.95, "e\\u0301": true, "": {"a.b": [[], {}]}}},
             "list": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "s": "text", "t": true, "f": false, "z": null}
            """
        return (try? JSONParser.parse(text)) ?? .null
    }()

    /// Parses `bytes` as a JSONPath query and runs it over the document, as a tree and as a tape.
    static func queryJSONPath(_ bytes: [UInt8]) {
        guard let path = try? JSONPath(text(bytes)) else { return }
        _ = path.query(jsonPathDocument)
        _ = path.queryLocated(jsonPathDocument)
        if let tape = jsonPathTape {
            _ = tape.query(path)
        }
    }

    /// The document as a tape, as a response body is read.
    static let jsonPathTape: JSONTape? = {
        let bytes = JSONWriter.bytes(jsonPathDocument)
        return try? JSONTape(parsing: bytes)
    }()

    /// The queries run over every JSON text the fuzzer makes.
    static let jsonQueries: [JSONPath] = ["$..*", "$[*]", "$..[?@ > 1]", "$..a"].compactMap { try? JSONPath($0) }

    /// Parses `bytes` as JSON, as a tree, as a tape and as a tape without null members, and queries them.
    static func parseJSON(_ bytes: [UInt8]) {
        if let value = try? JSONParser.parse(bytes) {
            _ = JSONWriter.bytes(value)
            for query in jsonQueries { _ = query.query(value) }
        }
        for dropping in [false, true] {
            guard let tape = try? JSONTape(parsing: bytes, droppingNullMembers: dropping) else { continue }
            for query in jsonQueries { _ = tape.query(query) }
        }
    }
}
