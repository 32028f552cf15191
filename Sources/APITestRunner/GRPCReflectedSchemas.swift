import APITestGRPC
import APITestHTTP
import APITestProtobuf
import Synchronization

/// The schemas of the gRPC servers a run's `grpc:` steps read through reflection (`reflection: true`): each server
/// (its URL, authority and connection settings) is asked once per run, however many steps and tests call it; the
/// calls that come while it is being asked wait for that answer. A failure is kept too: every step to that server
/// errors with it, at its own place.
final class GRPCReflectedSchemas: Sendable {
    /// What asking a server gave: its schema, or why there is none.
    typealias Outcome = Result<ProtoSchema, GRPCReflectedSchemaFailure>

    private let fetches = Mutex<[String: Task<Outcome, Never>]>([:])

    /// The schema of the server `target` calls (its path and messages are ignored), asked through `session`.
    func schema(for target: GRPCCallDescription, session: SessionManager) async -> Outcome {
        let key = Self.key(of: target)
        let task = fetches.withLock { fetches in
            if let task = fetches[key] { return task }
            let task = Task<Outcome, Never> {
                do {
                    return .success(try await GRPCReflectionClient(session: session, target: target).schema().schema)
                } catch {
                    return .failure(GRPCReflectedSchemaFailure(message: String(describing: error)))
                }
            }
            fetches[key] = task
            return task
        }
        return await task.value
    }

    /// One server: its URL and authority, and what decides the connection (resolve entries, transport).
    private static func key(of target: GRPCCallDescription) -> String {
        var base = target.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return [base, target.authority ?? "", target.resolve.joined(separator: ","), "\(target.transport)"]
            .joined(separator: "\u{1}")
    }
}

/// Why a server's schema could not be read through reflection, in words.
struct GRPCReflectedSchemaFailure: Error, Sendable {
    var message: String
}
