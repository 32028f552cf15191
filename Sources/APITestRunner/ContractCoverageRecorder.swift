import APITestOpenAPI
import APITestResults
import Synchronization

/// Counts, during a run, what the responses covered of each OpenAPI contract its suites name: calls per operation,
/// hits per declared response, requests that matched no operation. Shared by every worker; ``coverage`` makes the
/// run's ``OpenAPICoverage`` when it ends. A response costs a few array increments under one lock (counters by
/// operation index and response entry position, no dictionary).
final class ContractCoverageRecorder: Sendable {
    /// The counts of one contract.
    private struct Counts {
        var file: String
        var version: String
        /// Every operation of the document, ignored ones included, by `OpenAPIOperation.index`; nil for a place
        /// the contract does not list (an ignored operation).
        var operations: [OpenAPIOperation?]
        /// Calls per operation, by index.
        var calls: [Int]
        /// Hits per operation and position in its `responseKeys`.
        var hits: [[Int]]
        /// Unmatched requests by method and path, in the order first seen.
        var unmatched: [(method: String, path: String, hits: Int)] = []

        init(file: String, contract: OpenAPIContract) {
            self.file = file
            self.version = contract.version
            let size = (contract.operations.map(\.index).max() ?? -1) + 1
            var operations = [OpenAPIOperation?](repeating: nil, count: size)
            var hits = [[Int]](repeating: [], count: size)
            for operation in contract.operations {
                operations[operation.index] = operation
                hits[operation.index] = Array(repeating: 0, count: operation.responseKeys.count)
            }
            self.operations = operations
            self.calls = Array(repeating: 0, count: size)
            self.hits = hits
        }
    }

    /// Contracts in the order first registered.
    private let state = Mutex<[Counts]>([])

    init() {}

    /// Registers `contract`, named `file` in reports, unless a contract of that file is registered already.
    func register(_ contract: OpenAPIContract, file: String) {
        state.withLock { all in
            guard !all.contains(where: { $0.file == file }) else { return }
            all.append(Counts(file: file, contract: contract))
        }
    }

    /// A response matched `operation` of the contract of `file`, through the response entry `responseKey` (none
    /// when its status is not declared).
    func recordCall(file: String, operation: OpenAPIOperation, responseKey: String?) {
        let position = responseKey.flatMap { operation.responseKeys.firstIndex(of: $0) }
        state.withLock { all in
            guard let index = Self.slot(of: file, in: all), all[index].calls.indices.contains(operation.index) else {
                return
            }
            all[index].calls[operation.index] += 1
            if let position, all[index].hits[operation.index].indices.contains(position) {
                all[index].hits[operation.index][position] += 1
            }
        }
    }

    /// A request matched no operation of the contract of `file`; true the first time for this method and path
    /// (the runner reports each once).
    @discardableResult
    func recordUnmatched(file: String, method: String, path: String) -> Bool {
        state.withLock { all in
            guard let index = Self.slot(of: file, in: all) else { return false }
            if let position = all[index].unmatched.firstIndex(where: { $0.method == method && $0.path == path }) {
                all[index].unmatched[position].hits += 1
                return false
            }
            all[index].unmatched.append((method, path, 1))
            return true
        }
    }

    /// The place of `file`'s contract: runs name one or a few documents.
    private static func slot(of file: String, in all: [Counts]) -> Int? {
        all.firstIndex { $0.file == file }
    }

    /// The coverage counted so far; `nil` when no contract was registered.
    var coverage: OpenAPICoverage? {
        state.withLock { all in
            guard !all.isEmpty else { return nil }
            return OpenAPICoverage(
                documents: all.map { counts in
                    OpenAPICoverage.Document(
                        file: counts.file, openapi: counts.version,
                        operations: counts.operations.compactMap { $0 }.map { operation in
                            OpenAPICoverage.Operation(
                                operationId: operation.operationId, method: operation.method,
                                path: operation.pathTemplate, calls: counts.calls[operation.index],
                                responses: operation.responseKeys.enumerated().map { position, key in
                                    OpenAPICoverage.Response(status: key, hits: counts.hits[operation.index][position])
                                })
                        },
                        unmatched: counts.unmatched.map {
                            OpenAPICoverage.Unmatched(method: $0.method, path: $0.path, hits: $0.hits)
                        })
                })
        }
    }
}
