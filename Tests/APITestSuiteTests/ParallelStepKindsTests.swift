import APITestSupport
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// A long list parsed in parts notes which kinds of steps its tests hold (`TestParser.StepKinds`), and the suite-wide
/// checks skip scanning the tests for a kind none has (`SnapshotParser.checkUnique`, `GRPCSchemaCheck`): the kinds
/// are those of a scan of every test, and every diagnostic is the one-thread parse's, wherever the snapshots and gRPC
/// calls are (the first part, the last, both, in a `forEach` test, in setup or teardown only, nowhere).
@Suite struct ParallelStepKindsTests {
    /// Where a variant of the suite puts its snapshots and gRPC calls: item numbers of the `tests` list.
    struct Variant: CustomStringConvertible {
        var snapshots: [Int] = []
        var grpcCalls: [Int] = []
        var forEachSnapshot: Int?
        var setup = ""
        var teardown = ""
        var description: String { "snapshots \(snapshots) grpc \(grpcCalls) forEach \(forEachSnapshot ?? 0)" }
    }

    static let count = 4_000

    static let variants: [Variant] = [
        Variant(),
        Variant(snapshots: [5]),
        Variant(snapshots: [3_995]),
        Variant(snapshots: [5, 3_995]), // the same name in the first part and the last
        Variant(grpcCalls: [7]),
        Variant(grpcCalls: [3_998]),
        Variant(snapshots: [2_001], grpcCalls: [12, 3_999]),
        Variant(forEachSnapshot: 3_990),
        Variant(snapshots: [9], forEachSnapshot: 3_990),
        Variant(setup: "  - request: {url: /s}\n    expect: {snapshot: same}\n"),
        Variant(snapshots: [3_000], setup: "  - request: {url: /s}\n    expect: {snapshot: same}\n"),
        Variant(teardown: "  - grpc: {url: grpc://h:1, method: acme.Users/GetUser}\n"),
        Variant(snapshots: [10], teardown: "  - request: {url: /t}\n    expect: {snapshot: {name: same}}\n"),
    ]

    /// A suite of `count` plain tests (non-ASCII names among them) with the variant's snapshots (all named `same`),
    /// gRPC calls (no `grpc:` setting, an error for each suite that has one) and steps.
    static func text(_ variant: Variant) -> String {
        var text = "name: kinds\nbaseURL: http://127.0.0.1:9/\n"
        if !variant.setup.isEmpty { text += "setup:\n" + variant.setup }
        if !variant.teardown.isEmpty { text += "teardown:\n" + variant.teardown }
        text += "tests:\n"
        for index in 1...count {
            let name = variant.forEachSnapshot == index ? "row {{ n }}" : "\(index % 3 == 0 ? "ünï ✓ " : "t")\(index)"
            text += "  - name: \"\(name)\"\n"
            if variant.grpcCalls.contains(index) {
                text += "    steps:\n      - request: {url: a}\n"
                text += "      - grpc: {url: grpc://h:1, method: acme.Users/GetUser}\n"
            } else if variant.forEachSnapshot == index {
                text += "    forEach: [{n: a}, {n: b}]\n    request: {url: \"r/{{ n }}\"}\n"
                text += "    expect: {snapshot: rows}\n"
            } else if variant.snapshots.contains(index) {
                text += "    request: {url: \"items/\(index)\"}\n    expect: {status: 200, snapshot: same}\n"
            } else if index % 2 == 0 {
                text += "    steps:\n      - request: {url: a}\n      - request: {url: \"b/\(index)\"}\n"
            } else {
                text += "    request: {url: \"items/\(index)\"}\n    expect: {status: 200}\n"
            }
        }
        return text
    }

    /// The tests of `text`'s list and the kinds of steps `TestParser.tests` reports, in parts or on one thread.
    private func parsed(_ text: String, parallel: Bool) throws -> (tests: [TestCase], kinds: TestParser.StepKinds) {
        let composed = try YAMLComposer.compose(text)
        let root = try #require(composed.root)
        let context = SuiteParseContext(
            file: "/tmp/kinds.yaml", directory: "/tmp", document: composed.document, root: root, source: text,
            environment: [:], overrides: [:])
        context.shared.parsesTestsInParallel = parallel
        let node = try #require(
            composed.document.pairs(of: root)?.first { composed.document.scalar($0.key)?.string == "tests" }?.value)
        var kinds = TestParser.StepKinds()
        let tests = TestParser.tests(node, hasBaseURL: true, in: context, stepKinds: &kinds)
        #expect(context.diagnostics.isEmpty, "\(context.diagnostics)")
        return (tests, kinds)
    }

    /// The kinds of `tests`' steps, by a scan of every step.
    private static func scannedKinds(of tests: [TestCase]) -> TestParser.StepKinds {
        let steps = tests.flatMap(\.steps)
        return TestParser.StepKinds(
            snapshots: steps.contains { $0.expect.snapshot != nil }, grpcCalls: steps.contains { $0.grpc != nil })
    }

    /// Every diagnostic of loading `text`, as text (location, severity, length, message, note), or nil if it loaded.
    private static func diagnostics(_ text: String, parallel: Bool) -> [String]? {
        var loader = SuiteLoader(environment: [:])
        loader.parsesTestsInParallel = parallel
        do throws(SuiteLoadError) {
            _ = try loader.load(source: text, file: "/tmp/kinds.yaml")
            return nil
        } catch {
            return error.diagnostics.map {
                "\($0.location) \($0.severity) \($0.length) \($0.message) \($0.note ?? "")"
            }
        }
    }

    @Test(arguments: variants) func thePartsKindsAreThoseOfAScan(_ variant: Variant) throws {
        let text = Self.text(variant)
        let inParts = try parsed(text, parallel: true)
        let oneThread = try parsed(text, parallel: false)
        #expect(inParts.tests == oneThread.tests)
        #expect(inParts.kinds == Self.scannedKinds(of: inParts.tests))
        #expect(inParts.kinds.snapshots == (!variant.snapshots.isEmpty || variant.forEachSnapshot != nil))
        #expect(inParts.kinds.grpcCalls == !variant.grpcCalls.isEmpty)
        // On one thread nothing looked: every kind may be there.
        #expect(oneThread.kinds == TestParser.StepKinds())
    }

    @Test(arguments: variants) func theSuiteWideChecksReportWhatOneThreadReports(_ variant: Variant) {
        let text = Self.text(variant)
        let inParts = Self.diagnostics(text, parallel: true)
        let oneThread = Self.diagnostics(text, parallel: false)
        #expect(inParts == oneThread)
        let messages = (inParts ?? []).joined(separator: "\n")
        let hasGRPC = !variant.grpcCalls.isEmpty || variant.teardown.contains("grpc")
        #expect(messages.contains("a grpc step needs the suite's message types") == hasGRPC, "\(messages)")
        let sameSnapshots =
            variant.snapshots.count + (variant.setup.contains("same") ? 1 : 0)
            + (variant.teardown.contains("same") ? 1 : 0)
        #expect(messages.contains("snapshot name 'same' is already used at") == (sameSnapshots > 1), "\(messages)")
        #expect(
            messages.contains("snapshot 'rows' is in a step that forEach repeats") == (variant.forEachSnapshot != nil))
    }

    @Test func aShortListKeepsEveryKind() throws {
        let text = "name: short\nbaseURL: http://127.0.0.1:9/\ntests:\n  - name: a\n    request: {url: a}\n"
        #expect(try parsed(text, parallel: true).kinds == TestParser.StepKinds())
    }
}
