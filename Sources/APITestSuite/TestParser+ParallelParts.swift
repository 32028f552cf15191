import APITestYAML
import Foundation

// MARK: - Parallel parsing

extension TestParser {
    /// The fewest tests in a list for it to be parsed in parts on several cores.
    static let parallelThreshold = 2_000

    /// The tests of a long list parsed in parts, one per core, each on its own context
    /// (`SuiteParseContext.forkedForParallelParsing()`), held in one buffer in the list's order until `takeNext()`
    /// moves each out (a copy of a test would retain each of its parts).
    ///
    /// There are none (the initialiser fails) when the list is short, the machine has one core, or a part reported
    /// anything (an error or a warning) or the parts together passed the value budget: the list is then parsed on
    /// one thread, which finds every diagnostic in the order it always has. A test's parse reads only its own nodes
    /// and the file's settings, so the parts are independent; what they share (deferred URL checks, compiled
    /// expressions, the value budget) is taken back by `Shared.absorb(_:)`. `forEach` rows, duplicate names and the
    /// tests' order stay the caller's, as on one thread.
    final class ParsedParts {
        private let parsed: UnsafeMutablePointer<(TestCase, YAMLNode, hasForEach: Bool)?>
        private let count: Int
        /// How many tests have been taken (they are taken in order).
        private var taken = 0

        init?(_ items: ArraySlice<YAMLNode>, hasBaseURL: Bool, in context: SuiteParseContext) {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            guard context.shared.parsesTestsInParallel, items.count >= parallelThreshold, cores > 1,
                context.diagnostics.isEmpty
            else { return nil }
            let partCount = min(cores, items.count / (parallelThreshold / 2), 8)
            let forks = (0..<partCount).map { _ in context.forkedForParallelParsing() }
            let count = items.count
            let parsed = UnsafeMutablePointer<(TestCase, YAMLNode, hasForEach: Bool)?>.allocate(capacity: count)
            do {
                nonisolated(unsafe) let parsed = parsed
                nonisolated(unsafe) let forks = forks
                let start = items.startIndex
                DispatchQueue.concurrentPerform(iterations: partCount) { part in
                    for offset in (count * part / partCount)..<(count * (part + 1) / partCount) {
                        (parsed + offset).initialize(
                            to: test(
                                items[start + offset], number: offset + 1, hasBaseURL: hasBaseURL, in: forks[part]))
                    }
                }
            }
            guard forks.allSatisfy({ $0.diagnostics.isEmpty }), context.shared.absorb(forks.map(\.shared)) else {
                parsed.deinitialize(count: count)
                parsed.deallocate()
                return nil
            }
            self.parsed = parsed
            self.count = count
        }

        /// Moves out the next test not taken, in the list's order.
        func takeNext() -> (TestCase, YAMLNode, hasForEach: Bool)? {
            precondition(taken < count, "each test is taken once")
            taken += 1
            return (parsed + taken - 1).move()
        }

        deinit {
            (parsed + taken).deinitialize(count: count - taken)
            parsed.deallocate()
        }
    }

}
