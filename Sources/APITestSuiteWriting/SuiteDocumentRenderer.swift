package import APITestJSON
import APITestSupport

/// Writes a ``SuiteDocument`` as the text of one suite file: the editor modeline, the header comment, the suite's
/// notes, its settings (`name`, `variables`, `baseURL`, `openapi`, `defaults`, `security`), then `setup`, `tests`
/// and `teardown`, each test with its comments and notes as `#` lines right above it. Every comment and note is one
/// line of the file (line breaks and controls of text from a source written as escapes, ``Swift/String/
/// onOneLineForNotes``), so no text can start a line of YAML; long ones wrap onto more `#` lines.
///
/// ```swift
/// suite.schemaReference = "../schemas/apitest.schema.json"
/// let text = SuiteDocumentRenderer(suite: suite).render()
/// ```
package struct SuiteDocumentRenderer: Sendable {
    /// The suite.
    package var suite: SuiteDocument

    /// A renderer of `suite`.
    package init(suite: SuiteDocument) {
        self.suite = suite
    }

    // MARK: - The file

    /// The file's text, ending with a line break.
    package func render() -> String {
        var lines: [String] = []
        if let schemaReference = suite.schemaReference {
            lines.append("# yaml-language-server: $schema=\(schemaReference)")
        }
        lines += Self.comments(suite.header, indent: 0)
        for note in suite.notes { lines += YAMLEmitter.comment(note.rendered) }
        lines += YAMLEmitter.lines(key: "name", value: .string(suite.name), indent: 0)
        lines += Self.comments(suite.variablesComments, indent: 0)
        if !suite.variables.isEmpty {
            let object = JSONObject(suite.variables.map { (key: $0.name, value: $0.value) })
            lines += YAMLEmitter.lines(key: "variables", value: .object(object), indent: 0)
        }
        if let baseURL = suite.baseURL {
            lines += YAMLEmitter.lines(key: "baseURL", value: .string(baseURL), indent: 0)
        }
        if let openAPI = suite.openAPI {
            var object = JSONObject([(key: "file", value: .string(openAPI.file))])
            if let server = openAPI.server { object["server"] = .string(server) }
            lines += YAMLEmitter.lines(key: "openapi", value: .object(object), indent: 0)
        }
        if !suite.defaults.isEmpty {
            lines += YAMLEmitter.lines(key: "defaults", value: Self.defaults(suite.defaults), indent: 0)
        }
        if let security = suite.security, !security.isEmpty {
            lines += YAMLEmitter.lines(key: "security", value: Self.security(security), indent: 0)
        }
        // One set of names for the file: a setup or teardown step's name in a report is never a test's.
        var names = UniqueName()
        if !suite.setup.isEmpty {
            lines += ["", "setup:"]
            for test in suite.setup { lines += testLines(test, name: names.make(test.name)) }
        }
        lines += ["", "tests:"]
        for test in suite.tests { lines += testLines(test, name: names.make(test.name)) }
        lines += Self.comments(suite.closingComments, indent: 2)
        if !suite.teardown.isEmpty {
            lines += ["", "teardown:"]
            for test in suite.teardown { lines += testLines(test, name: names.make(test.name)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Comment lines at `indent` spaces, each one line of text: a name from a source cannot start a line of YAML.
    static func comments(_ texts: [String], indent: Int) -> [String] {
        texts.flatMap { YAMLEmitter.comment($0.onOneLineForNotes, indent: indent) }
    }

    // MARK: - Suite settings

    /// `defaults` as a map.
    static func defaults(_ defaults: SuiteDocument.Defaults) -> JSONValue {
        var object = JSONObject()
        if !defaults.headers.isEmpty { object["headers"] = headers(defaults.headers) }
        addTransferSettings(
            timeout: defaults.timeout, followRedirects: defaults.followRedirects, maxRedirects: defaults.maxRedirects,
            compressed: defaults.compressed, to: &object)
        if let auth = defaults.auth { object["auth"] = Self.auth(auth) }
        addTransport(defaults.transport, to: &object)
        return .object(object)
    }

    /// `security` as a map.
    static func security(_ security: SuiteDocument.Security) -> JSONValue {
        var object = JSONObject()
        if let pinning = security.pinning { object["pinning"] = .string(pinning) }
        if !security.pins.isEmpty { object["pins"] = .array(security.pins.map { .string($0) }) }
        if !security.certificates.isEmpty {
            object["certificates"] = .array(security.certificates.map { .string($0) })
        }
        if let allow = security.allowInvalidCertificates { object["allowInvalidCertificates"] = .bool(allow) }
        if let validates = security.validatesDomainName { object["validatesDomainName"] = .bool(validates) }
        if let caFile = security.caFile { object["caFile"] = .string(caFile) }
        if let certificate = security.clientCertificate { object["clientCertificate"] = .string(certificate) }
        if let key = security.clientKey { object["clientKey"] = .string(key) }
        return .object(object)
    }

    // MARK: - Tests

    /// A test's comments, notes and item.
    private func testLines(_ test: SuiteDocument.Test, name: String) -> [String] {
        var lines = Self.comments(test.comments, indent: 2)
        for note in test.notes { lines += YAMLEmitter.comment(note.rendered, indent: 2) }
        for step in test.laterSteps {
            for note in step.notes { lines += YAMLEmitter.comment(note.rendered, indent: 2) }
        }
        var item = JSONObject([(key: "name", value: .string(name))])
        if !test.tags.isEmpty { item["tags"] = .array(test.tags.map { .string($0) }) }
        if let forEach = test.forEach { item["forEach"] = forEach }
        let first =
            test.websocket.map(Self.websocketStep)
            ?? Self.step(request: test.request, expect: test.expect, captures: test.captures)
        if test.laterSteps.isEmpty && test.websocket == nil {
            for member in first { item[member.key] = member.value }
        } else {
            let later = test.laterSteps.map {
                $0.websocket.map(Self.websocketStep)
                    ?? Self.step(request: $0.request, expect: $0.expect, captures: $0.captures)
            }
            item["steps"] = .array(([first] + later).map { .object($0) })
        }
        return lines + YAMLEmitter.itemLines(.object(item), indent: 2)
    }

    /// A step's `request`, `expect` (when not empty) and `capture` (when any).
    static func step(
        request: SuiteDocument.Request, expect: SuiteDocument.Expectation, captures: [(name: String, query: JSONValue)]
    ) -> JSONObject {
        var object = JSONObject([(key: "request", value: Self.request(request))])
        if !expect.isEmpty { object["expect"] = Self.expectation(expect) }
        if !captures.isEmpty {
            object["capture"] = .object(JSONObject(captures.map { (key: $0.name, value: $0.query) }))
        }
        return object
    }

    /// `request` as a map, keys in the order of docs/suite-format.md.
    package static func request(_ request: SuiteDocument.Request) -> JSONValue {
        var object = JSONObject([
            (key: "method", value: .string(request.method)), (key: "url", value: .string(request.url)),
        ])
        if !request.query.isEmpty {
            object["query"] = .object(JSONObject(request.query.map { (key: $0.name, value: .string($0.value)) }))
        }
        if !request.headers.isEmpty { object["headers"] = headers(request.headers) }
        if let (username, password) = request.basicAuth {
            object["basicAuth"] = ["username": .string(username), "password": .string(password)]
        }
        if let auth = request.auth { object["auth"] = Self.auth(auth) }
        switch request.body {
        case .json(let value)?:
            object["json"] = value
        case .form(let fields)?:
            object["form"] = .object(JSONObject(fields.map { (key: $0.name, value: $0.value) }))
        case .text(let text, let contentType)?:
            object["body"] = .string(text)
            if let contentType { object["contentType"] = .string(contentType) }
        case .file(let path, let contentType)?:
            object["bodyFile"] = .string(path)
            if let contentType { object["contentType"] = .string(contentType) }
        case .multipart(let parts)?:
            object["multipart"] = .array(parts.map(part))
        case .graphql(let query, let variables)?:
            var operation = JSONObject([(key: "query", value: .string(query))])
            if let variables { operation["variables"] = variables }
            object["graphql"] = .object(operation)
        case nil:
            break
        }
        addTransferSettings(
            timeout: request.timeout, followRedirects: request.followRedirects, maxRedirects: request.maxRedirects,
            compressed: request.compressed, to: &object)
        addTransport(request.transport, to: &object)
        return .object(object)
    }

    /// `timeout`, `followRedirects`, `maxRedirects` and `compressed`, those that are set, as `defaults` and
    /// `request` both write them.
    static func addTransferSettings(
        timeout: Double?, followRedirects: Bool?, maxRedirects: Int?, compressed: Bool?, to object: inout JSONObject
    ) {
        if let timeout { object["timeout"] = .string(duration(timeout)) }
        if let followRedirects { object["followRedirects"] = .bool(followRedirects) }
        if let maxRedirects { object["maxRedirects"] = .integer(Int64(maxRedirects)) }
        if let compressed { object["compressed"] = .bool(compressed) }
    }

    /// `auth` as a map of its one kind.
    static func auth(_ auth: SuiteDocument.Auth) -> JSONValue {
        switch auth {
        case .bearer(let token):
            return ["bearer": .string(token)]
        case .digest(let user, let password):
            return ["digest": ["user": .string(user), "password": .string(password)]]
        case .ntlm(let user, let password):
            return ["ntlm": ["user": .string(user), "password": .string(password)]]
        case .awsSigV4(let signature):
            var object = JSONObject([
                (key: "accessKey", value: .string(signature.accessKey)),
                (key: "secretKey", value: .string(signature.secretKey)),
            ])
            if let token = signature.sessionToken { object["sessionToken"] = .string(token) }
            object["region"] = .string(signature.region)
            object["service"] = .string(signature.service)
            return ["awsSigV4": .object(object)]
        case .netrc(let file):
            return ["netrc": file.map { .string($0) } ?? .bool(true)]
        case .oauth2(let grant):
            var object = JSONObject([
                (key: "flow", value: .string(grant.flow.rawValue)), (key: "tokenURL", value: .string(grant.tokenURL)),
                (key: "clientId", value: .string(grant.clientID)),
            ])
            let clientAuth = grant.clientAuthentication == .basic ? nil : grant.clientAuthentication.rawValue
            let optional: [(String, String?)] = [
                ("clientSecret", grant.clientSecret), ("scope", grant.scope), ("audience", grant.audience),
                ("username", grant.username), ("password", grant.password), ("refreshToken", grant.refreshToken),
                ("clientAuth", clientAuth),
            ]
            for (key, value) in optional { if let value { object[key] = .string(value) } }
            return ["oauth2": .object(object)]
        }
    }

    /// `resolve`, `connectTo`, `unixSocket`, `httpVersion`, `proxy` and `noProxy`, those that are set, as
    /// `defaults` and `request` both write them.
    static func addTransport(_ transport: SuiteDocument.Transport, to object: inout JSONObject) {
        if !transport.resolve.isEmpty { object["resolve"] = .array(transport.resolve.map { .string($0) }) }
        if !transport.connectTo.isEmpty { object["connectTo"] = .array(transport.connectTo.map { .string($0) }) }
        if let path = transport.unixSocket { object["unixSocket"] = .string(path) }
        if let version = transport.httpVersion { object["httpVersion"] = .string(version) }
        if let proxy = transport.proxy { object["proxy"] = .string(proxy) }
        if let noProxy = transport.noProxy { object["noProxy"] = .string(noProxy) }
    }

    /// One multipart part as a map.
    static func part(_ part: SuiteDocument.Part) -> JSONValue {
        var object = JSONObject([(key: "name", value: .string(part.name))])
        switch part.content {
        case .value(let text): object["value"] = .string(text)
        case .file(let path): object["file"] = .string(path)
        case .data(let text): object["data"] = .string(text)
        }
        if let filename = part.filename { object["filename"] = .string(filename) }
        if let contentType = part.contentType { object["contentType"] = .string(contentType) }
        if !part.headers.isEmpty { object["headers"] = headers(part.headers) }
        return .object(object)
    }

    /// `expect` as a map.
    static func expectation(_ expect: SuiteDocument.Expectation) -> JSONValue {
        var object = JSONObject()
        if expect.status.count == 1 {
            object["status"] = expect.status[0]
        } else if !expect.status.isEmpty {
            object["status"] = .array(expect.status)
        }
        if !expect.headers.isEmpty {
            object["headers"] = .object(JSONObject(expect.headers.map { (key: $0.name, value: $0.check) }))
        }
        if !expect.json.isEmpty {
            object["json"] = .object(JSONObject(expect.json.map { (key: $0.path, value: $0.check) }))
        }
        if let schema = expect.schema { object["schema"] = .string(schema) }
        if !expect.assertions.isEmpty { object["assert"] = .array(expect.assertions) }
        return .object(object)
    }

    // MARK: - Values

    /// Header fields as a map, in order.
    static func headers(_ fields: [SuiteDocument.Header]) -> JSONValue {
        .object(JSONObject(fields.map { (key: $0.name, value: .string($0.value)) }))
    }

    /// A duration in seconds as the suite format writes it: `10s`, `1.5s`, `250ms`.
    static func duration(_ seconds: Double) -> String {
        if seconds >= 1, seconds == seconds.rounded() { return "\(Int(seconds))s" }
        let milliseconds = seconds * 1000
        if milliseconds == milliseconds.rounded() { return "\(Int(milliseconds))ms" }
        return "\(seconds)s"
    }
}
