import APITestJSON
import APITestSupport
import APITestYAML

/// `grpc:`: a step that makes one gRPC call (`url`, `method`, `message` or `messages`, `metadata`, `timeout`,
/// transport keys), the suite's `grpc:` settings (`proto`, `importPaths`, `reflection`) and `expect.grpc`
/// (docs/grpc.md#steps).
enum GRPCParser {
    /// The keys of a step's `grpc:` (with the transport keys of a request).
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case url, method, message, messages, metadata, timeout, authority, maxMessageSize

        var schema: SchemaValue {
            switch self {
            case .url:
                .described(
                    "The server, templated: http://host:port or grpc://host:port (HTTP/2 without TLS, h2c), "
                        + "https://host:port or grpcs://host:port (TLS); a relative one resolves against baseURL, "
                        + "and without url the call goes to baseURL.", ref: "template")
            case .method:
                .described(
                    "The method: package.Service/Method (as the .proto files or reflection declare it).",
                    ["type": "string", "minLength": 3])
            case .message:
                .described(
                    "The request message in the protobuf JSON mapping (a map, templated), for unary and "
                        + "server-streaming methods; {} when not written.", ["type": "object"])
            case .messages:
                .described(
                    "The request messages of a client-streaming or bidirectional method, sent in order before the "
                        + "request ends.", ["type": "array", "items": ["type": "object"]])
            case .metadata:
                .described(
                    "Request metadata: lower-case keys → values, templated (a key ending in -bin takes bytes).",
                    ref: "headers")
            case .timeout: .described("The call's deadline (sent as grpc-timeout).", ref: "duration")
            case .authority: .described("The :authority sent instead of the URL's host and port.", ref: "template")
            case .maxMessageSize:
                .described(
                    "The largest response message accepted (bytes, or 64KiB, 16MiB); default 4MiB.",
                    ["type": ["integer", "string"]])
            }
        }

        /// The definition of a step's `grpc:`.
        static var definition: SchemaValue {
            .described(
                "A gRPC call: the method, its message(s) and metadata.",
                [
                    "type": "object", "additionalProperties": false, "required": ["method"],
                    "properties": properties.merged(with: TransportSpec.Key.properties),
                ])
        }
    }

    /// The keys of the suite's `grpc:`.
    enum SettingKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case proto, importPaths, reflection

        var schema: SchemaValue {
            switch self {
            case .proto:
                .described(
                    "The .proto files declaring the services called, relative to the suite (compiled once when it "
                        + "loads).", ["anyOf": [.ref("filePath"), ["type": "array", "items": .ref("filePath")]]])
            case .importPaths:
                .described(
                    "Folders imports are found in, relative to the suite (default: the suite's folder).",
                    ["type": "array", "items": ["type": "string"]])
            case .reflection:
                .described(
                    "Read the schema from each server's reflection service (grpc.reflection.v1 or v1alpha), once "
                        + "per target and run.", ["type": "boolean"])
            }
        }

        /// The definition of the suite's `grpc:`.
        static var definition: SchemaValue {
            .described(
                "Where the message types of grpc: steps come from: proto files or server reflection.",
                ["type": "object", "additionalProperties": false, "properties": properties])
        }
    }

    /// The keys of `expect.grpc`.
    enum ExpectKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case status, message, details, trailers

        var schema: SchemaValue {
            switch self {
            case .status:
                .described(
                    "The status the call must end with: a name (NOT_FOUND), a number (5) or a list; default OK.",
                    ["type": ["string", "integer", "array"]])
            case .message: .described("A check of the status message.", ref: "textCheck")
            case .details:
                .described(
                    "A check of the status details (google.rpc.Status details, each Any as JSON with @type).",
                    ref: "valueCheck")
            case .trailers:
                .described(
                    "Trailing metadata by name → check on its text.",
                    ["type": "object", "additionalProperties": .ref("textCheck")])
            }
        }

        /// The definition of `expect.grpc`.
        static var definition: SchemaValue {
            .described(
                "Checks of a gRPC call's status and trailers (the response message is checked with json:).",
                ["type": "object", "additionalProperties": false, "properties": properties])
        }
    }

    /// The keys a `grpc:` step may have besides `grpc`.
    static let stepKeys: [StepParser.Key] = [.name, .when, .forEach, .grpc, .expect, .capture, .retry]

    /// The `expect` keys that do not apply to a gRPC call.
    static let inapplicableChecks: Set<String> = [
        "status", "cookies", "xml", "url", "redirects", "graphql", "snapshot", "image",
    ]

    /// The definition of a `grpc:` step in the editor schema.
    static var stepDefinition: SchemaValue {
        [
            "type": "object", "additionalProperties": false, "required": ["grpc"],
            "properties": .members(stepKeys.map { ($0.rawValue, $0.schema) }),
        ]
    }

    /// The gRPC status codes by name (gRPC's documentation), for `expect.grpc.status`.
    static let statusNames: [String] = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    // MARK: - The step

    /// A `grpc:` step from its map's entries; nil when it has no usable call (errors are reported).
    static func step(
        _ entries: [MapEntry], grpc: MapEntry, at item: YAMLNode, hasBaseURL: Bool, in context: SuiteParseContext
    ) -> Step? {
        for entry in entries {
            guard let key = StepParser.Key(named: entry.key) else {
                context.error(
                    "unknown key '\(entry.key)' in a grpc step"
                        + KeyAlias.didYouMean(entry.key, in: stepKeys.map(\.rawValue)), at: entry.keyNode)
                continue
            }
            if !stepKeys.contains(key) {
                context.error(
                    "'\(entry.key)' does not go with 'grpc': a step makes one HTTP request, one gRPC call or one "
                        + "WebSocket conversation", at: entry.keyNode)
            }
        }
        let expectations = entries[StepParser.Key.expect].map { expect($0.value, in: context) } ?? Expectations()
        let captures = entries[StepParser.Key.capture].map { CaptureParser.captures($0.value, in: context) } ?? []
        let retry = entries[StepParser.Key.retry].flatMap { RetryParser.parse($0.value, in: context) }
        guard let (request, spec) = parse(grpc.value, hasBaseURL: hasBaseURL, in: context) else { return nil }
        var step = Step(
            location: context.location(of: item), request: request, expect: expectations, captures: captures,
            retry: retry)
        step.grpc = spec
        return step
    }

    /// `expect:` of a gRPC step: the keys that apply to a response message, its metadata and the call.
    private static func expect(_ node: YAMLNode, in context: SuiteParseContext) -> Expectations {
        if let entries = context.mapping(node, for: "expect") {
            for entry in entries where inapplicableChecks.contains(entry.key) {
                let hint =
                    entry.key == "status"
                    ? "; the call's status is checked with grpc: {status: NOT_FOUND}" : ""
                context.error("'\(entry.key)' does not apply to a gRPC call\(hint)", at: entry.keyNode)
            }
        }
        return ExpectParser.parse(node, in: context)
    }

    /// The call as a request (URL, metadata as header fields, timeout, transport) and its gRPC settings; nil when it
    /// has no usable method.
    static func parse(
        _ node: YAMLNode, hasBaseURL: Bool, in context: SuiteParseContext
    ) -> (RequestSpec, GRPCSpec)? {
        guard let entries = context.mapping(node, for: "grpc") else { return nil }
        context.checkKeys(entries, of: Key.self, and: TransportSpec.Key.self, in: "grpc")
        let location = context.location(of: node)
        var request = RequestSpec(url: Template(literal: "", location: location), location: location)
        request.method = "POST"
        var method: (String, SourceLocation)?
        var spec = GRPCSpec(method: "", methodLocation: location, location: location)
        for entry in entries {
            switch Key(named: entry.key) {
            case .url:
                if let url = context.template(entry.value, for: "url") {
                    checkURL(url, at: entry.value, in: context)
                    request.url = url
                }
            case .method:
                guard let text = context.text(entry.value, for: "method") else { break }
                if !isMethodReference(text) {
                    context.error(
                        "'\(text.shownInMessage)' is not a gRPC method; write package.Service/Method", at: entry.value)
                    break
                }
                method = (text, context.location(of: entry.value))
            case .message:
                guard context.isMapping(entry.value) else {
                    context.typeError(expected: "a map (the message as JSON)", for: "message", found: entry.value)
                    break
                }
                spec.messages = [
                    GRPCMessageSpec(
                        value: context.templateValue(entry.value), location: context.location(of: entry.value))
                ]
            case .messages:
                guard let items = context.sequence(entry.value, for: "messages") else { break }
                spec.isMessageList = true
                spec.messages = items.compactMap { item in
                    guard context.isMapping(item) else {
                        context.typeError(expected: "a map (a message as JSON)", for: "messages", found: item)
                        return nil
                    }
                    return GRPCMessageSpec(value: context.templateValue(item), location: context.location(of: item))
                }
            case .metadata:
                request.headers = metadata(entry.value, in: context)
                spec.metadataKeys = request.headers.map { $0.name.lowercased() }
            case .timeout: request.timeout = context.duration(entry.value, for: "timeout")
            case .authority: spec.authority = context.template(entry.value, for: "authority")
            case .maxMessageSize: spec.maxMessageSize = context.byteSize(entry.value, for: "maxMessageSize")
            case nil:
                guard let key = TransportSpec.Key(named: entry.key) else { break }
                var transport = request.transport ?? TransportSpec()
                TransportParser.parse(entry, key: key, into: &transport, in: context)
                request.transport = transport
            }
        }
        if entries[Key.message] != nil, entries[Key.messages] != nil {
            context.error(
                "'grpc' takes 'message' (one request message) or 'messages' (a stream of them), not both",
                at: location)
        }
        spec.hasURL = entries[Key.url] != nil
        if !spec.hasURL, !hasBaseURL {
            context.error(
                "'grpc' needs a 'url' (grpc://host:port or grpcs://host:port) or the suite's baseURL", at: location)
        }
        guard let method else {
            if entries[Key.method] == nil {
                context.error("'grpc' needs a 'method' (package.Service/Method)", at: location)
            }
            return nil
        }
        spec.method = method.0
        spec.methodLocation = method.1
        return (request, spec)
    }

    /// Whether `text` has the shape of a method reference: `package.Service/Method`, `/package.Service/Method` or
    /// `package.Service.Method`, of letters, digits, `_` and `.`.
    static func isMethodReference(_ text: String) -> Bool {
        var body = Substring(text)
        if body.hasPrefix("/") { body = body.dropFirst() }
        guard !body.isEmpty,
            body.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "/") })
        else { return false }
        let slashes = body.filter { $0 == "/" }.count
        if slashes == 1 {
            let parts = body.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
        }
        return slashes == 0 && body.contains(".") && !body.hasSuffix(".") && !body.hasPrefix(".")
    }

    /// Checks a URL's scheme when its text names one before any template: http, https, grpc (h2c) or grpcs (TLS).
    private static func checkURL(_ url: Template, at node: YAMLNode, in context: SuiteParseContext) {
        let text = url.source
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://"),
            !text[..<colon].contains("{")
        else { return }
        let scheme = text[..<colon].lowercased()
        if !["http", "https", "grpc", "grpcs"].contains(scheme) {
            context.error(
                "unsupported URL scheme '\(scheme.shownInMessage)' for a gRPC call; use grpc:// (or http://) for "
                    + "HTTP/2 without TLS, grpcs:// (or https://) for TLS", at: node)
        }
    }

    /// `metadata:`: keys of `a-z 0-9 - _ .` (any case, sent lower-case), not one gRPC or HTTP sets itself.
    private static func metadata(_ node: YAMLNode, in context: SuiteParseContext) -> [HeaderSpec] {
        guard let entries = context.mapping(node, for: "metadata") else { return [] }
        var metadata: [HeaderSpec] = []
        for entry in entries {
            let key = entry.key.lowercased()
            // The transport's rule (`GRPCMetadataKey`, which `GRPCMetadata.requestFields` checks too).
            switch GRPCMetadataKey.problem(key) {
            case .empty?, .invalidCharacter?:
                context.error(
                    "'\(entry.key.shownInMessage)' is not a metadata key: use letters, digits, '-', '_' and '.'",
                    at: entry.keyNode)
                continue
            case .reserved?:
                context.error(
                    "'\(entry.key)' is set by gRPC or HTTP itself and cannot be sent as metadata", at: entry.keyNode)
                continue
            case nil:
                break
            }
            guard let value = context.template(entry.value, for: entry.key) else { continue }
            if let problem = RequestParser.forbiddenCharacter(inHeaderValue: value.source) {
                context.error("the value of metadata '\(entry.key)' cannot contain \(problem)", at: entry.value)
                continue
            }
            metadata.append(HeaderSpec(name: key, value: value, location: context.location(of: entry.keyNode)))
        }
        return metadata
    }

    // MARK: - The suite's setting

    /// The suite's `grpc:`: `proto` (a file or a list), `importPaths`, `reflection`.
    static func setting(_ entry: MapEntry, in context: SuiteParseContext) -> GRPCSchemaSetting? {
        guard let entries = context.mapping(entry.value, for: "grpc") else { return nil }
        context.checkKeys(entries, of: SettingKey.self, in: "the suite's grpc")
        var setting = GRPCSchemaSetting(location: context.location(of: entry.keyNode))
        var valid = true
        for item in entries {
            switch SettingKey(named: item.key) {
            case .proto:
                let nodes: [YAMLNode]
                if context.scalar(item.value) != nil {
                    nodes = [item.value]
                } else {
                    nodes = Array(context.sequence(item.value, for: "proto") ?? [])
                }
                if nodes.isEmpty { context.error("'proto' names no file; add a .proto file", at: item.value) }
                for node in nodes {
                    guard let path = context.text(node, for: "proto"),
                        context.checkBodyFile(path, at: node, for: "proto") != nil
                    else {
                        valid = false
                        continue
                    }
                    setting.protoFiles.append(path)
                }
            case .importPaths:
                guard let nodes = context.sequence(item.value, for: "importPaths") else { break }
                for node in nodes {
                    guard let path = context.text(node, for: "importPaths") else { continue }
                    setting.importPaths.append(FilePaths.absolute(path, relativeTo: context.directory))
                }
            case .reflection:
                setting.reflection = context.bool(item.value, for: "reflection") ?? false
            case nil: break
            }
        }
        if !setting.protoFiles.isEmpty, setting.reflection {
            context.error(
                "the suite's grpc takes 'proto' files or 'reflection: true', not both", at: setting.location)
            return nil
        }
        if setting.protoFiles.isEmpty, !setting.reflection, valid, entries[SettingKey.proto] == nil {
            context.error(
                "the suite's grpc needs 'proto: [api.proto]' or 'reflection: true'", at: setting.location)
            return nil
        }
        return valid ? setting : nil
    }

    // MARK: - expect.grpc

    /// `expect.grpc`: `status`, `message`, `details`, `trailers`.
    static func expectation(_ node: YAMLNode, in context: SuiteParseContext) -> GRPCExpectation {
        var expectation = GRPCExpectation(location: context.location(of: node))
        guard let entries = context.mapping(node, for: "grpc") else { return expectation }
        context.checkKeys(entries, of: ExpectKey.self, in: "expect.grpc")
        for entry in entries {
            switch ExpectKey(named: entry.key) {
            case .status:
                let items = context.document.items(of: entry.value).map(Array.init) ?? [entry.value]
                if items.isEmpty {
                    context.error("'status' is an empty list; give at least one status", at: entry.value)
                }
                expectation.codes = items.compactMap { statusCode($0, in: context) }
            case .details where isPathMap(entry.value, in: context):
                // `details: {"$[0].reason": USER_MISSING}`: JSONPath queries on the list of details, as `json:`.
                for check in context.mapping(entry.value, for: "details") ?? [] {
                    guard context.jsonPath(check.key, at: check.keyNode) != nil,
                        let query = try? JSONPath("$.details" + check.key.dropFirst())
                    else { continue }
                    if let made = CheckParser.check(
                        check.value, query: .jsonpath(query), at: context.location(of: check.keyNode), in: context)
                    {
                        expectation.statusChecks.append(made)
                    }
                }
            case .message, .details:
                guard let query = try? JSONPath("$.\(entry.key)") else { continue }
                if let made = CheckParser.check(
                    entry.value, query: .jsonpath(query), at: context.location(of: entry.keyNode), in: context)
                {
                    expectation.statusChecks.append(made)
                }
            case .trailers:
                guard let checks = context.mapping(entry.value, for: "trailers") else { continue }
                for check in checks {
                    guard context.checkHeaderName(check.key, at: check.keyNode) else { continue }
                    if var made = CheckParser.check(
                        check.value, query: .header(check.key.lowercased()),
                        at: context.location(of: check.keyNode), in: context)
                    {
                        made.target = .grpcTrailers
                        expectation.trailers.append(made)
                    }
                }
            case nil: break
            }
        }
        return expectation
    }

    /// Whether `node` is a map whose keys are all JSONPath queries (`$...`).
    private static func isPathMap(_ node: YAMLNode, in context: SuiteParseContext) -> Bool {
        guard context.isMapping(node), let entries = context.mapping(node, for: "details"), !entries.isEmpty else {
            return false
        }
        return entries.allSatisfy { $0.key.hasPrefix("$") }
    }

    /// One status: a name (any case) or a number 0-16 (a larger one a server may send too, up to 999).
    private static func statusCode(_ node: YAMLNode, in context: SuiteParseContext) -> Int? {
        guard let text = context.scalar(node)?.string, !text.isEmpty else {
            context.typeError(expected: "a status name or number", for: "status", found: node)
            return nil
        }
        if let number = Int(text), (0...999).contains(number) { return number }
        if let index = statusNames.firstIndex(of: text.uppercased()) { return index }
        context.error(
            "unknown gRPC status '\(text.shownInMessage)'" + Suggestion.didYouMean(text.uppercased(), in: statusNames),
            at: node)
        return nil
    }
}
