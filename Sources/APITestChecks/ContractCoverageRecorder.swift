package import APITestOpenAPI
package import APITestResults
import Synchronization

/// Counts, during a run, what the responses covered of each OpenAPI contract its suites name: calls per operation,
/// hits per declared response, requests that matched no operation. Shared by every worker; ``coverage`` makes the
/// run's ``OpenAPICoverage`` when it ends.
///
/// Counting a response takes no lock: each operation's calls and each of its response entries is an atomic counter,
/// found by the operation's index and the entry's position (fifty workers taking one lock per response made the
/// run switch contexts half as often again). Only the unmatched requests (rare) are behind a lock.
package final class ContractCoverageRecorder: Sendable {
    /// One counter.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)

        func add() { value.wrappingAdd(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// The counters of one operation.
    private final class OperationCounters: Sendable {
        let operation: OpenAPIOperation
        let calls = Counter()
        /// By position in `operation.responseKeys`.
        let hits: [Counter]

        init(_ operation: OpenAPIOperation) {
            self.operation = operation
            self.hits = operation.responseKeys.map { _ in Counter() }
        }
    }

    /// The counts of one contract.
    private final class Counts: Sendable {
        let file: String
        let version: String
        /// By `OpenAPIOperation.index`; nil for an index the contract does not list (an ignored operation).
        let operations: [OperationCounters?]
        /// Unmatched requests by method and path, in the order first seen.
        let unmatched = Mutex<[(method: String, path: String, hits: Int)]>([])

        init(file: String, contract: OpenAPIContract) {
            self.file = file
            self.version = contract.version
            var operations = [OperationCounters?](
                repeating: nil, count: (contract.operations.map(\.index).max() ?? -1) + 1)
            for operation in contract.operations { operations[operation.index] = OperationCounters(operation) }
            self.operations = operations
        }
    }

    /// The contracts, in the order first named; fixed before the run's first request, so read without a lock.
    private let contracts: [Counts]

    /// A recorder of the coverage of `contracts` (each named by its file in reports; a file named again is counted
    /// once).
    package init(contracts: [(contract: OpenAPIContract, file: String)] = []) {
        var counts: [Counts] = []
        for (contract, file) in contracts where !counts.contains(where: { $0.file == file }) {
            counts.append(Counts(file: file, contract: contract))
        }
        self.contracts = counts
    }

    /// The counts of `file`'s contract: runs name one or a few documents.
    private func counts(of file: String) -> Counts? {
        contracts.first { $0.file == file }
    }

    /// A response matched `operation` of the contract of `file`, through the response entry `responseKey` (none
    /// when its status is not declared).
    func recordCall(file: String, operation: OpenAPIOperation, responseKey: String?) {
        guard let counts = counts(of: file), counts.operations.indices.contains(operation.index),
            let counters = counts.operations[operation.index]
        else { return }
        counters.calls.add()
        guard let responseKey else { return }
        // Compared in a loop over the few keys (`firstIndex(of:)` here went through Equatable's witness per key).
        for (position, key) in operation.responseKeys.enumerated() where key == responseKey {
            if counters.hits.indices.contains(position) { counters.hits[position].add() }
            return
        }
    }

    /// A request matched no operation of the contract of `file`; true the first time for this method and path
    /// (the runner reports each once).
    @discardableResult
    func recordUnmatched(file: String, method: String, path: String) -> Bool {
        guard let counts = counts(of: file) else { return false }
        return counts.unmatched.withLock { unmatched in
            if let position = unmatched.firstIndex(where: { $0.method == method && $0.path == path }) {
                unmatched[position].hits += 1
                return false
            }
            unmatched.append((method, path, 1))
            return true
        }
    }

    /// The coverage counted so far; `nil` when no contract was registered.
    package var coverage: OpenAPICoverage? {
        let all = contracts
        guard !all.isEmpty else { return nil }
        return OpenAPICoverage(
            documents: all.map { counts in
                OpenAPICoverage.Document(
                    file: counts.file, openapi: counts.version,
                    operations: counts.operations.compactMap { $0 }.map { counters in
                        let operation = counters.operation
                        return OpenAPICoverage.Operation(
                            operationId: operation.operationId, method: operation.method,
                            path: operation.pathTemplate, calls: counters.calls.count,
                            responses: zip(operation.responseKeys, counters.hits).map { key, counter in
                                OpenAPICoverage.Response(status: key, hits: counter.count)
                            })
                    },
                    unmatched: counts.unmatched.withLock { $0 }.map {
                        OpenAPICoverage.Unmatched(method: $0.method, path: $0.path, hits: $0.hits)
                    })
            })
    }
}
