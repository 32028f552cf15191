import APITestJSON
import Foundation

/// Reads a Postman collection file (format v2.0 or v2.1, as the Postman app, Newman and the collection SDK write it)
/// into a ``PostmanCollection``. Every problem is a ``JSONSourceError`` at its JSON path; nothing a file holds makes
/// it crash. Where the SDK is lenient (a request given as a URL string, one event instead of a list, headers as
/// `Name: value` text, v2.0 auth objects), so is this.
package struct PostmanCollectionDecoder: Sendable {
    /// The file's name, for errors.
    package var file: String

    /// A decoder of `file`.
    package init(file: String) {
        self.file = file
    }

    // MARK: - Collection

    /// The collection in `bytes`.
    package func decode(_ bytes: [UInt8]) throws(JSONSourceError) -> PostmanCollection {
        let root = try JSONSourceNode.parse(bytes, file: file)
        guard case .object = root.value else { throw root.error("expected a Postman collection object") }
        if root.member("requests") != nil, root.member("item") == nil {
            throw root.error(
                "this is a Postman collection v1, which apitest does not read: export it from Postman as v2.1")
        }
        guard let items = root.member("item") else {
            throw root.error("no 'item' list: not a Postman collection v2.0 or v2.1")
        }
        let info = root.member("info")
        var name = try info?.text("name")
        if name == nil { name = try root.text("name") }
        var collection = PostmanCollection(name: name ?? "Postman collection")
        if let schema = try info?.text("schema") {
            collection.schemaVersion = schema.split(separator: "/").first { $0.hasPrefix("v") }.map(String.init)
        }
        collection.variables = try variables(root.member(anyOf: "variable", "variables"))
        collection.auth = try auth(root.member("auth"))
        collection.events = try events(root.member("event"))
        collection.items = try itemList(items)
        return collection
    }

    /// The entries of an `item` list.
    private func itemList(_ node: JSONSourceNode) throws(JSONSourceError) -> [PostmanItem] {
        var result: [PostmanItem] = []
        for child in try node.elements() { result.append(try item(child)) }
        return result
    }

    /// One entry: a folder when it has `item`, else a request.
    private func item(_ node: JSONSourceNode) throws(JSONSourceError) -> PostmanItem {
        guard case .object = node.value else { throw node.error("expected a folder or request object") }
        let name = try node.text("name") ?? ""
        if let children = node.member("item") {
            var folder = PostmanFolder(name: name)
            folder.variables = try variables(node.member("variable"))
            folder.auth = try auth(node.member("auth"))
            folder.events = try events(node.member("event"))
            folder.items = try itemList(children)
            return .folder(folder)
        }
        guard let requestNode = node.member("request") else {
            throw node.error("an item without 'item' (a folder) or 'request'")
        }
        var entry = PostmanRequestItem(name: name, request: try request(requestNode))
        entry.variables = try variables(node.member("variable"))
        entry.events = try events(node.member("event"))
        // Some files put the request's scripts inside `request` (the SDK ignores them there; so does apitest).
        return .request(entry)
    }

    // MARK: - Request

    /// A `request`: a URL string, or an object.
    private func request(_ node: JSONSourceNode) throws(JSONSourceError) -> PostmanRequest {
        var request = PostmanRequest()
        if case .string(let url) = node.value {
            request.url = url
            return request
        }
        guard case .object = node.value else { throw node.error("expected a request object or a URL string") }
        request.method = (try node.text("method") ?? "GET").uppercased()
        if let url = node.member("url") { request.url = try self.url(url) }
        if let header = node.member("header") { request.headers = try headers(header) }
        if let body = node.member("body") { request.body = try self.body(body) }
        request.auth = try auth(node.member("auth"))
        return request
    }

    /// A URL: the string, or the object's `raw` (built from its parts when absent), `:name` path variables replaced.
    private func url(_ node: JSONSourceNode) throws(JSONSourceError) -> String {
        if case .string(let text) = node.value { return text }
        guard case .object = node.value else { throw node.error("expected a URL string or object") }
        var text: String
        if let raw = try node.text("raw") {
            text = raw
        } else {
            text = ""
            if let scheme = try node.text("protocol") { text += scheme + "://" }
            if let host = node.member("host") {
                text += try host.elementsOrSelf().map { node throws(JSONSourceError) in try node.text() }.joined(
                    separator: ".")
            }
            if let port = try node.text("port") { text += ":" + port }
            if let path = node.member("path") {
                for segment in path.elementsOrSelf() {
                    if case .object = segment.value {
                        text += "/" + (try segment.text("value") ?? "")
                    } else {
                        text += "/" + (try segment.text())
                    }
                }
            }
            if let query = node.member("query") {
                let pairs = try keyValues(query)
                if !pairs.isEmpty { text += "?" + pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&") }
            }
        }
        if let variables = node.member("variable") {
            for variable in try keyValues(variables) {
                text = Self.replacingPathVariable(variable.name, with: variable.value, in: text)
            }
        }
        return text
    }

    /// `text` with the path segment `:name` replaced by `value` (in the path only, not the query).
    static func replacingPathVariable(_ name: String, with value: String, in text: String) -> String {
        let queryStart = text.firstIndex(of: "?") ?? text.endIndex
        var path = String(text[..<queryStart])
        let rest = text[queryStart...]
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for index in segments.indices where segments[index] == ":" + name { segments[index] = value }
        path = segments.joined(separator: "/")
        return path + rest
    }

    /// Enabled headers: a list of `{key, value}`, or `Name: value` lines.
    private func headers(_ node: JSONSourceNode) throws(JSONSourceError) -> [(name: String, value: String)] {
        if case .string(let text) = node.value {
            return text.split(whereSeparator: \.isNewline).compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces)
                return name.isEmpty
                    ? nil : (name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
        }
        return try keyValues(node)
    }

    /// Enabled `{key, value}` entries of a list, in order.
    private func keyValues(_ node: JSONSourceNode) throws(JSONSourceError) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for entry in try node.elements() {
            guard case .object = entry.value else { throw entry.error("expected an object with 'key' and 'value'") }
            if entry.flag("disabled") == true { continue }
            guard let key = try entry.text("key") else { continue }
            result.append((key, try entry.text("value") ?? ""))
        }
        return result
    }

    // MARK: - Body

    /// A `body` by its mode; nil when disabled or empty.
    private func body(_ node: JSONSourceNode) throws(JSONSourceError) -> PostmanBody? {
        guard case .object = node.value else { throw node.error("expected a body object") }
        if node.flag("disabled") == true { return nil }
        switch try node.text("mode") {
        case "raw"?:
            let text = try node.text("raw") ?? ""
            let language = try node.member("options")?.member("raw")?.text("language")
            return text.isEmpty ? nil : .raw(text, language: language)
        case "urlencoded"?:
            guard let fields = node.member("urlencoded") else { return nil }
            let pairs = try keyValues(fields)
            return pairs.isEmpty ? nil : .urlencoded(pairs)
        case "formdata"?:
            guard let parts = node.member("formdata") else { return nil }
            let list = try formParts(parts)
            return list.isEmpty ? nil : .formdata(list)
        case "file"?:
            guard let src = try node.member("file")?.text("src"), !src.isEmpty else { return nil }
            return .file(src)
        case "graphql"?:
            guard let graphql = node.member("graphql") else { return nil }
            let variables: String
            if let value = graphql.member("variables"), case .string(let text) = value.value {
                variables = text
            } else if let value = graphql.member("variables") {
                variables = JSONWriter.string(value.value)
            } else {
                variables = ""
            }
            return .graphql(query: try graphql.text("query") ?? "", variables: variables)
        case nil:
            return nil
        case let mode?:
            throw node.error("unknown body mode '\(mode)' (expected raw, urlencoded, formdata, file or graphql)")
        }
    }

    /// Enabled `formdata` parts.
    private func formParts(_ node: JSONSourceNode) throws(JSONSourceError) -> [PostmanFormPart] {
        var result: [PostmanFormPart] = []
        for entry in try node.elements() {
            guard case .object = entry.value else { throw entry.error("expected a form part object") }
            if entry.flag("disabled") == true { continue }
            guard let key = try entry.text("key") else { continue }
            let contentType = try entry.text("contentType")
            if try entry.text("type") == "file" {
                // `src` is a path, a list of paths (several files under one name), or absent (no file chosen).
                let sources =
                    try entry.member("src")?.elementsOrSelf().map { node throws(JSONSourceError) in
                        try node.text()
                    } ?? []
                for source in sources {
                    result.append(PostmanFormPart(name: key, value: source, isFile: true, contentType: contentType))
                }
                if sources.isEmpty {
                    result.append(PostmanFormPart(name: key, value: "", isFile: true, contentType: contentType))
                }
            } else {
                result.append(
                    PostmanFormPart(
                        name: key, value: try entry.text("value") ?? "", isFile: false, contentType: contentType))
            }
        }
        return result
    }

    // MARK: - Auth, events, variables

    /// An `auth` block, nil when absent. Parameters come as a v2.1 list of `{key, value}` or a v2.0 object.
    private func auth(_ node: JSONSourceNode?) throws(JSONSourceError) -> PostmanAuth? {
        guard let node else { return nil }
        guard case .object = node.value else { throw node.error("expected an auth object") }
        guard let type = try node.text("type") else { throw node.error("an auth block without 'type'") }
        var parameters: [String: String] = [:]
        if let block = node.member(type) {
            var values: [(String, JSONSourceNode?)] = []
            if case .array = block.value {
                for entry in try block.elements() {
                    guard let key = try entry.text("key") else { continue }
                    values.append((key, entry.member("value")))
                }
            } else {
                values = try block.members().map { ($0.0, $0.1) }
            }
            for (key, value) in values {
                switch value?.value {
                case .array?:
                    // A list of `{key, value}` (oauth2's `tokenRequestParams`): each as `list.key`.
                    for item in try value?.elements() ?? [] {
                        guard case .object = item.value, let name = try item.text("key") else { continue }
                        if case .array? = item.member("value")?.value { continue }
                        if case .object? = item.member("value")?.value { continue }
                        parameters[key + "." + name] = try item.text("value") ?? ""
                    }
                case .object?: continue
                default: parameters[key] = try value?.text() ?? ""
                }
            }
        }
        return PostmanAuth(type: type, parameters: parameters)
    }

    /// The enabled scripts of an `event` list (or of one event object).
    private func events(_ node: JSONSourceNode?) throws(JSONSourceError) -> [PostmanEvent] {
        guard let node else { return [] }
        var result: [PostmanEvent] = []
        for entry in node.elementsOrSelf() {
            guard case .object = entry.value else { throw entry.error("expected an event object") }
            if entry.flag("disabled") == true { continue }
            guard let listen = try entry.text("listen") else { throw entry.error("an event without 'listen'") }
            guard let script = entry.member("script") else { continue }
            var lines: [String] = []
            let exec: JSONSourceNode? = if case .string = script.value { script } else { script.member("exec") }
            if let exec {
                for line in exec.elementsOrSelf() {
                    lines += try line.text().split(separator: "\n", omittingEmptySubsequences: false).map {
                        String($0.hasSuffix("\r") ? $0.dropLast() : $0)
                    }
                }
            }
            result.append(PostmanEvent(listen: listen, lines: lines))
        }
        return result
    }

    /// The enabled variables of a `variable` list.
    func variables(_ node: JSONSourceNode?) throws(JSONSourceError) -> [PostmanVariable] {
        guard let node else { return [] }
        var result: [PostmanVariable] = []
        for entry in try node.elements() {
            guard case .object = entry.value else { throw entry.error("expected a variable object") }
            if entry.flag("disabled") == true || entry.flag("enabled") == false { continue }
            var key = try entry.text("key")
            if key == nil { key = try entry.text("id") }
            guard let key else { continue }
            let value: String
            switch entry.member("value")?.value {
            case .array(let items)?: value = JSONWriter.string(.array(items))
            case .object(let object)?: value = JSONWriter.string(.object(object))
            default: value = try entry.text("value") ?? ""
            }
            result.append(PostmanVariable(key: key, value: value, isSecret: try entry.text("type") == "secret"))
        }
        return result
    }
}
