import APITestSupport
import APITestYAML
import Foundation

// MARK: - Parallel parsing

extension TestParser {
    /// The fewest tests in a list for it to be parsed in parts on several cores.
    static let parallelThreshold = 2_000

    /// The kinds of steps a list's tests may hold, for the suite-wide checks to skip scanning every test for a kind
    /// none has (`SnapshotParser.checkUnique`, `GRPCSchemaCheck`): each is `true` unless the parts' parse, which
    /// looks at each test's steps on its own core, found none.
    struct StepKinds: Equatable {
        /// Whether a test's step may take a snapshot (`expect.snapshot`).
        var snapshots = true
        /// Whether a test's step may be a gRPC call.
        var grpcCalls = true
    }

    /// The tests of a long list parsed in parts, one per core, each on its own context
    /// (`SuiteParseContext.forkedForParallelParsing()`), written straight into one array in the list's order: when no
    /// test has `forEach` (the usual long list), `takeTests()` hands the array over as the list's tests, and only
    /// the names are then checked on one thread; otherwise `takeNext()` moves each test out in order.
    ///
    /// There are none (the initialiser fails) when the list is short, the machine has one core, a test did not
    /// parse, or a part reported anything (an error or a warning) or the parts together passed the value budget: the
    /// list is then parsed on one thread, which finds every diagnostic in the order it always has. A test's parse
    /// reads only its own nodes and the file's settings, so the parts are independent; what they share (deferred URL
    /// checks, compiled expressions, the value budget) is taken back by `Shared.absorb(_:)`. `forEach` rows,
    /// duplicate names and the tests' order stay the caller's, as on one thread.
    final class ParsedParts {
        /// The tests, in the list's order (until `takeTests()` hands them over).
        private var tests: [TestCase]
        /// The node of each test's name.
        let nameNodes: [YAMLNode]
        /// Whether each test has `forEach`.
        private let forEachFlags: [Bool]
        /// Whether any test has `forEach`.
        let hasForEach: Bool
        /// Which kinds of steps the tests hold (each exact: the parts looked at every step).
        let stepKinds: StepKinds
        /// How many tests `takeNext()` has taken (they are taken in order).
        private var taken = 0

        init?(_ items: ArraySlice<YAMLNode>, hasBaseURL: Bool, in context: SuiteParseContext) {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            guard context.shared.parsesTestsInParallel, items.count >= parallelThreshold, cores > 1,
                context.diagnostics.isEmpty
            else { return nil }
            let partCount = min(cores, items.count / (parallelThreshold / 2), 8)
            let forks = (0..<partCount).map { _ in context.forkedForParallelParsing() }
            let count = items.count
            // Every slot is written before it is read (a test that did not parse discards the parts).
            var nameNodes = [YAMLNode](repeating: items[items.startIndex], count: count)
            // 0: not parsed, 1: parsed, 2: parsed, with `forEach`.
            var states = [UInt8](repeating: 0, count: count)
            // Each part's kinds of steps: bit 1 a snapshot, bit 2 a gRPC call.
            var partKinds = [UInt8](repeating: 0, count: partCount)
            let tests = nameNodes.withUnsafeMutableBufferPointer { nameNodes in
                states.withUnsafeMutableBufferPointer { states in
                    partKinds.withUnsafeMutableBufferPointer { partKinds in
                        [TestCase](unsafeUninitializedCapacity: count) { buffer, initialized in
                            nonisolated(unsafe) let (buffer, nameNodes, states) = (buffer, nameNodes, states)
                            nonisolated(unsafe) let (forks, partKinds) = (forks, partKinds)
                            let start = items.startIndex
                            DispatchQueue.concurrentPerform(iterations: partCount) { part in
                                var kinds: UInt8 = 0
                                for offset in (count * part / partCount)..<(count * (part + 1) / partCount) {
                                    guard
                                        let (test, nameNode, hasForEach) = TestParser.test(
                                            items[start + offset], number: offset + 1, hasBaseURL: hasBaseURL,
                                            in: forks[part])
                                    else { continue }
                                    if kinds != 3 { kinds |= Self.stepKinds(of: test.steps) }
                                    (buffer.baseAddress! + offset).initialize(to: test)
                                    nameNodes[offset] = nameNode
                                    states[offset] = hasForEach ? 2 : 1
                                }
                                partKinds[part] = kinds
                            }
                            if states.contains(0) {
                                for offset in 0..<count where states[offset] != 0 {
                                    (buffer.baseAddress! + offset).deinitialize(count: 1)
                                }
                                initialized = 0
                            } else {
                                initialized = count
                            }
                        }
                    }
                }
            }
            guard tests.count == count, forks.allSatisfy({ $0.diagnostics.isEmpty }),
                context.shared.absorb(forks.map(\.shared))
            else { return nil }
            self.tests = tests
            self.nameNodes = nameNodes
            forEachFlags = states.map { $0 == 2 }
            hasForEach = forEachFlags.contains(true)
            let kinds = partKinds.reduce(0, |)
            stepKinds = StepKinds(snapshots: kinds & 1 != 0, grpcCalls: kinds & 2 != 0)
        }

        /// The kinds of `steps` (bit 1: one takes a snapshot; bit 2: one is a gRPC call).
        static func stepKinds(of steps: [Step]) -> UInt8 {
            var kinds: UInt8 = 0
            for index in steps.indices {
                if steps[index].expect.snapshot != nil { kinds |= 1 }
                if steps[index].isGRPCCall { kinds |= 2 }
            }
            return kinds
        }

        /// Hands over every test, in the list's order (once, and only when none was taken).
        func takeTests() -> [TestCase] {
            precondition(taken == 0, "the tests are taken once")
            taken = tests.count
            defer { tests = [] }
            return tests
        }

        /// Moves out the next test not taken, in the list's order, with the node of its name and whether it has
        /// `forEach`.
        func takeNext() -> (TestCase, YAMLNode, hasForEach: Bool)? {
            precondition(taken < tests.count, "each test is taken once")
            let index = taken
            taken += 1
            var test = TestCase(name: "", location: SourceLocation(file: "", line: 0, column: 0), steps: [])
            swap(&test, &tests[index])
            return (test, nameNodes[index], forEachFlags[index])
        }
    }
}
