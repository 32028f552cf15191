import APITestOpenAPI
import APITestResults
import Synchronization

/// Counts, during a run, what the responses covered of each OpenAPI contract its suites name: calls per operation,
/// hits per declared response, requests that matched no operation. Shared by every worker; ``coverage`` makes the
/// run's ``OpenAPICoverage`` when it ends.
final class ContractCoverageRecorder: Sendable {
    /// The counts of one contract.
    private struct Counts {
        var file: String
        var version: String
        var operations: [OpenAPIOperation]
        /// Calls per operation, by `OpenAPIOperation.methodAndPath`.
        var calls: [String: Int] = [:]
        /// Hits per operation and response key.
        var hits: [String: [String: Int]] = [:]
        /// Unmatched requests by method and path, in the order first seen.
        var unmatched: [(method: String, path: String, hits: Int)] = []
    }

    /// Contracts in the order first registered, by their file.
    private let state = Mutex<[Counts]>([])

    init() {}

    /// Registers `contract`, named `file` in reports, unless a contract of that file is registered already.
    func register(_ contract: OpenAPIContract, file: String) {
        state.withLock { all in
            guard !all.contains(where: { $0.file == file }) else { return }
            all.append(Counts(file: file, version: contract.version, operations: contract.operations))
        }
    }

    /// A response matched `operation` of the contract of `file`, through the response entry `responseKey` (none
    /// when its status is not declared).
    func recordCall(file: String, operation: OpenAPIOperation, responseKey: String?) {
        state.withLock { all in
            guard let index = all.firstIndex(where: { $0.file == file }) else { return }
            all[index].calls[operation.methodAndPath, default: 0] += 1
            if let responseKey { all[index].hits[operation.methodAndPath, default: [:]][responseKey, default: 0] += 1 }
        }
    }

    /// A request matched no operation of the contract of `file`; true the first time for this method and path
    /// (the runner reports each once).
    @discardableResult
    func recordUnmatched(file: String, method: String, path: String) -> Bool {
        state.withLock { all in
            guard let index = all.firstIndex(where: { $0.file == file }) else { return false }
            if let position = all[index].unmatched.firstIndex(where: { $0.method == method && $0.path == path }) {
                all[index].unmatched[position].hits += 1
                return false
            }
            all[index].unmatched.append((method, path, 1))
            return true
        }
    }

    /// The coverage counted so far; `nil` when no contract was registered.
    var coverage: OpenAPICoverage? {
        state.withLock { all in
            guard !all.isEmpty else { return nil }
            return OpenAPICoverage(
                documents: all.map { counts in
                    OpenAPICoverage.Document(
                        file: counts.file, openapi: counts.version,
                        operations: counts.operations.map { operation in
                            let key = operation.methodAndPath
                            return OpenAPICoverage.Operation(
                                operationId: operation.operationId, method: operation.method,
                                path: operation.pathTemplate, calls: counts.calls[key] ?? 0,
                                responses: operation.responseKeys.map {
                                    OpenAPICoverage.Response(status: $0, hits: counts.hits[key]?[$0] ?? 0)
                                })
                        },
                        unmatched: counts.unmatched.map {
                            OpenAPICoverage.Unmatched(method: $0.method, path: $0.path, hits: $0.hits)
                        })
                })
        }
    }
}
