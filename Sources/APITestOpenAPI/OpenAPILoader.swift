import APITestJSON
import APITestSupport

/// Loads one OpenAPI document into an ``OpenAPIContract``: reads its files, resolves Reference Objects, compiles
/// every schema, builds the router, and collects every problem on the way (not just the first).
final class OpenAPILoader {
    /// The methods a Path Item Object can have, in the order operations are listed.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    let options: OpenAPIContractOptions
    let documents: OpenAPIDocumentSet
    /// Problems found so far, in the order found, without repeats.
    private(set) var problems: [OpenAPILoadProblem] = []
    private var problemSet: Set<OpenAPILoadProblem> = []
    /// Warnings the loader found itself (the translation keeps its own), without repeats.
    private(set) var loaderWarnings: [OpenAPILoadProblem] = []
    private var loaderWarningSet: Set<OpenAPILoadProblem> = []

    /// The `openapi` version (`3.0.3`).
    var version = ""
    /// The schema dialect the version implies.
    var dialect = SchemaDialect.openAPI30
    /// The schemas' compilers, made once the dialect is known.
    var schemas: SchemaCompilation!
    /// Where each Reference Object leads (nil when it leads nowhere), so a shared one is followed once.
    var resolvedReferences: [SpecLocation: SpecNode?] = [:]
    /// The operations found, in document order.
    var operations: [CompiledOperation] = []
    /// Where each `operationId` was first declared.
    var operationIds: [String: SpecLocation] = [:]
    /// The first template of each shape and method: `GET /pets/{}` → (`/pets/{id}`, where).
    var templateShapes: [String: (template: String, location: SpecLocation)] = [:]
    /// The path prefixes of the servers (decoded segments), longest first.
    var serverPrefixes: [[String]] = []

    /// A loader for the document whose root file is at the absolute path `rootPath`.
    init(rootPath: String, options: OpenAPIContractOptions, reader: some OpenAPIFileReader) {
        self.options = options
        self.documents = OpenAPIDocumentSet(reader: reader, rootPath: rootPath)
    }

    // MARK: - Loading

    /// The contract, or every problem found.
    func load() throws(OpenAPILoadFailure) -> OpenAPIContract {
        let rootLocation = SpecLocation(path: documents.rootPath, pointer: [])
        guard let root = documents.node(at: rootLocation) else {
            if let failure = documents.failures[documents.rootPath] {
                if case .syntax(let location) = failure.kind {
                    report(
                        OpenAPILoadProblem(
                            kind: .readFailed(path: documents.rootPath, failure), location: location,
                            pointer: failure.pointer))
                } else {
                    report(.readFailed(path: documents.rootPath, failure), at: rootLocation)
                }
            }
            throw OpenAPILoadFailure(problems: problems)
        }
        guard case .object = root.value else {
            report(
                .wrongType(member: "document", expected: .object, found: Self.type(of: root.value)), at: rootLocation)
            throw OpenAPILoadFailure(problems: problems)
        }
        guard readVersion(root) else { throw OpenAPILoadFailure(problems: problems) }
        schemas = SchemaCompilation(dialect: dialect, documents: documents)
        readDialect(root)
        readServers(root)
        readComponents(root)
        readPaths(root)
        readWebhooks(root)
        if options.strictSpec { checkStructure(root) }
        let ignored = readIgnore(rootLocation)
        for index in operations.indices where ignored.contains(index) { operations[index].isIgnored = true }
        let warnings = collectedWarnings()
        // --strict-spec: each warning is refused, with the same words at the same place.
        if options.strictSpec { for warning in warnings { report(warning) } }
        guard problems.isEmpty else { throw OpenAPILoadFailure(problems: problems) }
        return makeContract(warnings: warnings)
    }

    private func makeContract(warnings: [OpenAPILoadProblem]) -> OpenAPIContract {
        var router = OperationRouter()
        for operation in operations {
            router.add(operation.template, method: operation.operation.method, index: operation.operation.index)
        }
        let tracer = SchemaPathTracer(
            rootPath: documents.rootPath, files: documents.files, identifiers: schemas.identifiers)
        var contract = OpenAPIContract(
            version: version, table: operations, router: router, serverPrefixes: serverPrefixes, tracer: tracer)
        contract.warnings = warnings
        return contract
    }

    // MARK: - Problems

    /// Records a problem at `location` (once: a shared part of the document reached twice reports once).
    func report(_ kind: OpenAPILoadProblem.Kind, at location: SpecLocation) {
        report(
            OpenAPILoadProblem(kind: kind, location: documents.sourceLocation(location), pointer: location.pointer))
    }

    /// Records a problem (once).
    func report(_ problem: OpenAPILoadProblem) {
        if problemSet.insert(problem).inserted { problems.append(problem) }
    }

    /// Records a warning at `location` (once).
    func warn(_ kind: OpenAPILoadProblem.Kind, at location: SpecLocation) {
        let warning = OpenAPILoadProblem(
            kind: kind, location: documents.sourceLocation(location), pointer: location.pointer)
        if loaderWarningSet.insert(warning).inserted { loaderWarnings.append(warning) }
    }

    /// The JSON type of `value`, for problems.
    static func type(of value: JSONValue) -> OpenAPILoadProblem.ValueType {
        switch value {
        case .null: .null
        case .bool: .boolean
        case .integer, .double, .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// `node` when it is an object; otherwise reports that `member` must be one and returns nil.
    func object(_ node: SpecNode, _ member: String) -> SpecNode? {
        if case .object = node.value { return node }
        report(.wrongType(member: member, expected: .object, found: Self.type(of: node.value)), at: node.location)
        return nil
    }

    /// The string of `node`, when it is one; otherwise reports that `member` must be one and returns nil.
    func string(_ node: SpecNode, _ member: String) -> String? {
        if case .string(let text) = node.value { return text }
        report(.wrongType(member: member, expected: .string, found: Self.type(of: node.value)), at: node.location)
        return nil
    }

    /// The boolean of `node`, when it is one; otherwise reports that `member` must be one and returns nil.
    func boolean(_ node: SpecNode, _ member: String) -> Bool? {
        if case .bool(let flag) = node.value { return flag }
        report(.wrongType(member: member, expected: .boolean, found: Self.type(of: node.value)), at: node.location)
        return nil
    }

    // MARK: - Version and dialect

    /// Reads `openapi`: 3.0.x and 3.1.x load; anything else is the one problem reported.
    private func readVersion(_ root: SpecNode) -> Bool {
        guard let member = root.member("openapi") else {
            let swagger = root.member("swagger").map { node -> String in
                if case .string(let text) = node.value { return text }
                return JSONWriter.string(node.value)
            }
            report(.notOpenAPI3(swagger: swagger), at: root.member("swagger")?.location ?? root.location)
            return false
        }
        guard let text = string(member, "openapi") else { return false }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let patchIsNumber =
            parts.count == 3 && parts[2].prefix { $0 != "-" }.allSatisfy(\.isNumber) && !parts[2].isEmpty
        guard parts.count == 3, parts[0] == "3", parts[1] == "0" || parts[1] == "1", patchIsNumber else {
            report(.unsupportedVersion(text), at: member.location)
            return false
        }
        version = text
        dialect = parts[1] == "0" ? .openAPI30 : .openAPI31
        return true
    }

    /// Checks `jsonSchemaDialect` (3.1): 2020-12 and OpenAPI's dialect are the ones apitest validates.
    private func readDialect(_ root: SpecNode) {
        guard dialect == .openAPI31, let member = root.member("jsonSchemaDialect"),
            let uri = string(member, "jsonSchemaDialect")
        else { return }
        if !SchemaDialect.isSupportedDialect(uri) { report(.unsupportedDialect(uri), at: member.location) }
    }

    // MARK: - Servers

    /// The prefixes of the options' server, else of the document's `servers`, else `/`.
    private func readServers(_ root: SpecNode) {
        var prefixes: [[String]] = []
        if let server = options.server {
            prefixes = [ServerURL.pathSegments(of: server, variables: [:])]
        } else if let servers = root.member("servers") {
            guard case .array = servers.value else {
                report(
                    .wrongType(member: "servers", expected: .array, found: Self.type(of: servers.value)),
                    at: servers.location)
                return
            }
            for server in servers.elements {
                guard let object = object(server, "server"), let urlNode = object.member("url"),
                    let url = string(urlNode, "url")
                else { continue }
                var defaults: [String: String] = [:]
                for (name, variable) in object.member("variables")?.members ?? [] {
                    if case .string(let value) = variable.member("default")?.value { defaults[name] = value }
                }
                prefixes.append(ServerURL.pathSegments(of: url, variables: defaults))
            }
        }
        if prefixes.isEmpty { prefixes = [[]] }
        var unique: [[String]] = []
        for prefix in prefixes where !unique.contains(prefix) { unique.append(prefix) }
        serverPrefixes = unique.sorted { $0.count > $1.count }
    }

    // MARK: - Ignore

    /// The operations the options' `ignore` names; an entry that names none is a problem.
    private func readIgnore(_ rootLocation: SpecLocation) -> Set<Int> {
        var ignored: Set<Int> = []
        for entry in options.ignore {
            let matches = operations.indices.filter { Self.ignoreEntry(entry, names: operations[$0]) }
            if matches.isEmpty { report(.unknownIgnoreEntry(entry), at: rootLocation) }
            ignored.formUnion(matches)
        }
        return ignored
    }

    /// Whether `entry` (`operationId`, `METHOD /path`, `/path`) names `operation`; paths compare by shape, so a
    /// parameter's name may differ.
    static func ignoreEntry(_ entry: String, names operation: CompiledOperation) -> Bool {
        let trimmed = entry.trimmingWhitespace()
        if trimmed == operation.operation.operationId { return true }
        var path = Substring(trimmed)
        if let space = trimmed.firstIndex(of: " ") {
            guard trimmed[..<space].uppercased() == operation.operation.method else { return false }
            path = trimmed[trimmed.index(after: space)...].drop { $0 == " " }
        }
        guard path.hasPrefix("/"), let template = PathTemplate(String(path)) else { return false }
        return template.shape == operation.template.shape
    }
}
