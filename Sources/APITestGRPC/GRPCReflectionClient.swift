package import APITestHTTP
package import APITestProtobuf
import APITestSupport
import Foundation
import Synchronization

/// Fetches a server's schema through gRPC server reflection: the services it lists, and the `FileDescriptorProto`s
/// of the named services (or of all) with every file they import, made into a ``ProtoSchema``.
///
/// Each exchange is one `ServerReflectionInfo` call (a bidirectional method) sent as all its requests followed by
/// the half-close, over the same transport as every gRPC call (``SessionManager/performGRPC(_:onHeaders:onMessage:)``
/// with the target's TLS, pins, `resolve`, proxy, metadata and deadline). `grpc.reflection.v1` is tried first;
/// when the server answers UNIMPLEMENTED, `v1alpha`, and the version that answered is used from then on.
///
/// 1. `list_services` and, for named services, `file_containing_symbol` of each, in one call.
/// 2. Without names, `file_containing_symbol` of every listed service but the reflection service itself.
/// 3. `file_by_filename` for each imported file not received yet, round after round, until every import is there.
///
/// The files and their bytes are bounded (``Limits``): a server cannot make the client hold more.
package struct GRPCReflectionClient: Sendable {
    /// How much a reflection exchange may bring in.
    package struct Limits: Sendable, Hashable {
        /// The most files kept (each `FileDescriptorProto` counted once).
        package var maxFiles: Int
        /// The most bytes of answers read, over every call of the exchange.
        package var maxBytes: Int

        /// Limits of `maxFiles` files and `maxBytes` bytes (by default 1,000 files and 32 MiB).
        package init(maxFiles: Int = 1000, maxBytes: Int = 32 * 1024 * 1024) {
            self.maxFiles = maxFiles
            self.maxBytes = maxBytes
        }
    }

    /// What reflection gave.
    package struct Reflected: Sendable {
        /// The schema of every file received.
        package var schema: ProtoSchema
        /// The services the server lists, in its order.
        package var listedServices: [String]
        /// The reflection version that answered.
        package var version: GRPCReflectionVersion
        /// The names of the files received, in the order they came.
        package var fileNames: [String]
    }

    /// The session the calls go through.
    package let session: SessionManager
    /// The call everything but the path and the messages is taken from: the server's URL, the connection settings,
    /// metadata (authorization, say) and deadline (applied to each call).
    package let target: GRPCCallDescription
    /// The bounds of the exchange.
    package let limits: Limits

    /// A client of the reflection service of `target`'s server.
    package init(session: SessionManager, target: GRPCCallDescription, limits: Limits = Limits()) {
        self.session = session
        self.target = target
        self.limits = limits
    }

    // MARK: - Listing

    /// The full names of the services the server lists, in its order, and the version that answered.
    ///
    /// - Throws: `GRPCReflectionError`, or `CancellationError` when the task is cancelled.
    package func listServices() async throws -> (services: [String], version: GRPCReflectionVersion) {
        var budget = Budget(limits: limits)
        let (answers, version) = try await exchange([.listServices], version: nil, budget: &budget)
        return (try Self.services(in: answers[0]), version)
    }

    // MARK: - Schema

    /// The schema of `services` (full names; all the listed services when nil) and every file they import.
    ///
    /// - Throws: `GRPCReflectionError` (a named service the server does not know is `symbolNotFound`, with the
    ///   nearest listed one), or `CancellationError` when the task is cancelled.
    package func schema(services names: [String]? = nil) async throws -> Reflected {
        var budget = Budget(limits: limits)
        var requests: [GRPCReflectionRequest] = [.listServices]
        requests += (names ?? []).map { .fileContainingSymbol($0) }
        var (answers, version) = try await exchange(requests, version: nil, budget: &budget)
        let listed = try Self.services(in: answers[0])
        var files = FileCollection(maxFiles: limits.maxFiles)
        if let names {
            for (name, answer) in zip(names, answers.dropFirst()) {
                try files.add(answer, for: .fileContainingSymbol(name), listed: listed)
            }
        } else {
            let reflection = Set(GRPCReflectionVersion.allCases.map(\.serviceName))
            let symbols = listed.filter { !reflection.contains($0) }
            if !symbols.isEmpty {
                let requests = symbols.map { GRPCReflectionRequest.fileContainingSymbol($0) }
                (answers, _) = try await exchange(requests, version: version, budget: &budget)
                for (request, answer) in zip(requests, answers) {
                    try files.add(answer, for: request, listed: listed)
                }
            }
        }
        // Imports not received yet, by name, until none is missing. Each name is asked for once: one that does not
        // come is an error, so this ends after at most as many rounds as the files allowed.
        var missing = files.missingImports()
        while !missing.isEmpty {
            let requests = missing.map { GRPCReflectionRequest.fileByFilename($0) }
            (answers, _) = try await exchange(requests, version: version, budget: &budget)
            for (request, answer) in zip(requests, answers) {
                try files.add(answer, for: request, listed: listed)
            }
            for name in missing where files.bytes[name] == nil {
                throw GRPCReflectionError(
                    .malformedAnswer("the answer to file_by_filename '\(name)' does not hold that file"))
            }
            missing = files.missingImports()
        }
        let schema: ProtoSchema
        do {
            schema = try ProtoSchema(fileDescriptorProtos: files.order.compactMap { files.bytes[$0] })
        } catch {
            throw GRPCReflectionError(.schema(error))
        }
        return Reflected(schema: schema, listedServices: listed, version: version, fileNames: files.order)
    }

    // MARK: - Calls

    /// What the exchange has used of its limits.
    private struct Budget {
        let limits: Limits
        var bytes = 0
    }

    /// Sends `requests` in one `ServerReflectionInfo` call and returns one answer per request, in order. With no
    /// `version`, `v1` is tried, then `v1alpha` when `v1` is UNIMPLEMENTED.
    private func exchange(
        _ requests: [GRPCReflectionRequest], version: GRPCReflectionVersion?, budget: inout Budget
    ) async throws -> ([GRPCReflectionResponse], GRPCReflectionVersion) {
        let versions = version.map { [$0] } ?? GRPCReflectionVersion.allCases
        for candidate in versions {
            let (status, messages) = try await call(requests, version: candidate, budget: &budget)
            if status.code == .unimplemented, version == nil { continue }
            guard status.isOK else { throw GRPCReflectionError(.callFailed(version: candidate, status: status)) }
            guard messages.count == requests.count else {
                throw GRPCReflectionError(
                    .malformedAnswer("\(messages.count) answers to \(requests.count) requests"))
            }
            var answers: [GRPCReflectionResponse] = []
            for (request, message) in zip(requests, messages) {
                do {
                    answers.append(try GRPCReflectionResponse.decode(Array(message)))
                } catch {
                    throw GRPCReflectionError(.malformedAnswer("the answer to \(request.summary): \(error.message)"))
                }
            }
            return (answers, candidate)
        }
        throw GRPCReflectionError(.notServed(server: target.baseURL))
    }

    /// One call of `version`'s method: its status (a local failure's when the call failed) and the messages read.
    private func call(
        _ requests: [GRPCReflectionRequest], version: GRPCReflectionVersion, budget: inout Budget
    ) async throws -> (GRPCStatus, [Data]) {
        var call = target
        call.path = version.path
        let host = URLComponents(string: target.baseURL)?.host
        call.messages = requests.map { Data($0.encoded(host: target.authority ?? host)) }
        let room = budget.limits.maxBytes - budget.bytes
        let collected = Mutex<(messages: [Data], bytes: Int, overLimit: Bool)>(([], 0, false))
        let result = try await session.performGRPC(
            call,
            onMessage: { message in
                collected.withLock { state in
                    state.bytes += message.count
                    guard state.bytes <= room else {
                        state.overLimit = true
                        return false
                    }
                    state.messages.append(message)
                    return true
                }
            })
        let state = collected.withLock { $0 }
        budget.bytes += state.bytes
        if state.overLimit { throw GRPCReflectionError(.tooLarge(what: "bytes", limit: budget.limits.maxBytes)) }
        return (result.status, state.messages)
    }

    // MARK: - Answers

    /// The service names of a `list_services` answer.
    private static func services(in answer: GRPCReflectionResponse) throws(GRPCReflectionError) -> [String] {
        switch answer {
        case .services(let names): return names
        case .error(let code, let message):
            throw GRPCReflectionError(.errorResponse(request: "list_services", code: code, message: message))
        case .fileDescriptors, .extensionNumbers:
            throw GRPCReflectionError(.malformedAnswer("list_services was not answered with a list of services"))
        }
    }
}

// MARK: - Files received

/// The files received so far, each kept once, in the order they came, with the imports each declares.
private struct FileCollection {
    let maxFiles: Int
    var order: [String] = []
    var bytes: [String: [UInt8]] = [:]
    var imports: [String: [String]] = [:]
    var requested: Set<String> = []

    /// Adds the files of `answer` to `request`; an error answer becomes the error it stands for.
    mutating func add(
        _ answer: GRPCReflectionResponse, for request: GRPCReflectionRequest, listed: [String]
    ) throws(GRPCReflectionError) {
        if case .fileByFilename(let name) = request { requested.insert(name) }
        switch answer {
        case .fileDescriptors(let files):
            for file in files { try add(file, answering: request) }
        case .error(let code, let message):
            if case .fileContainingSymbol(let name) = request, code == GRPCStatus.Code.notFound.rawValue {
                throw GRPCReflectionError(
                    .symbolNotFound(name: name, suggestion: Suggestion.closest(to: name, in: listed)))
            }
            throw GRPCReflectionError(.errorResponse(request: request.summary, code: code, message: message))
        case .services, .extensionNumbers:
            throw GRPCReflectionError(.malformedAnswer("\(request.summary) was not answered with files"))
        }
    }

    private mutating func add(_ file: [UInt8], answering request: GRPCReflectionRequest) throws(GRPCReflectionError) {
        let decoded: ProtoDescriptorDecoder.DecodedFile
        do {
            decoded = try ProtoDescriptorDecoder.decodeFile(file[...])
        } catch {
            throw GRPCReflectionError(.malformedAnswer("a file in the answer to \(request.summary): \(error.message)"))
        }
        let name = decoded.file.name
        guard bytes[name] == nil else { return }
        guard order.count < maxFiles else { throw GRPCReflectionError(.tooLarge(what: "files", limit: maxFiles)) }
        order.append(name)
        bytes[name] = file
        imports[name] = decoded.file.dependencies
    }

    /// The imports of the files received that have not come yet and were never asked for, sorted.
    func missingImports() -> [String] {
        var missing = Set<String>()
        for name in order {
            for dependency in imports[name] ?? [] where bytes[dependency] == nil && !requested.contains(dependency) {
                missing.insert(dependency)
            }
        }
        return missing.sorted()
    }
}
