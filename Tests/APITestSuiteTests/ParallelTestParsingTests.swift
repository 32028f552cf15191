import APITestSupport
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// A long `tests` list is parsed in parts on several cores (`TestParser.testsInParallel`): the suite it gives, and
/// every diagnostic of a suite with errors, are those of the parse on one thread.
@Suite struct ParallelTestParsingTests {
    /// A suite of `count` tests of many shapes: single requests and steps, captures and placeholders, JSONPath and
    /// regular expressions, bodies, skips, tags, `forEach` rows, long and non-ASCII scalars. With `broken`, errors in
    /// every part of the list: unknown keys, a bad JSONPath, a duplicate name across parts, an unknown variable.
    static func suiteText(count: Int, broken: Bool = false) -> String {
        var text = "name: big\nbaseURL: http://127.0.0.1:9/\nvariables: {id: '7'}\ntests:\n"
        let long = String(repeating: "long-value-", count: 40)
        for index in 1...count {
            switch index % 8 {
            case 0:
                text += "  - name: item \(index)\n    request: {url: \"items/\(index).json\"}\n"
                text += "    expect: {status: 200, json: {$.name: alice}}\n"
            case 1:
                text += "  - name: create \(index)\n    tags: [write, smoke]\n"
                text += "    request:\n      method: POST\n      url: items\n"
                text += "      headers: {X-Id: \"{{ id }}\", X-Long: \(long)}\n      json: {n: \(index), tag: 'x'}\n"
                text += "    expect:\n      status: [200, 201]\n"
                text += "      headers: {Content-Type: {contains: json}, Location: {matches: '^/items/[0-9]+$'}}\n"
            case 2:
                text += "  - name: flow \(index)\n    steps:\n"
                text += "      - request: {method: POST, url: login}\n        capture: {token: {jsonpath: $.token}}\n"
                text += "      - request: {url: \"me?n=\(index)\", headers: {Authorization: \"Bearer {{ token }}\"}}\n"
                text += "        expect: {json: {'$.items[*].id': {count: {greaterThan: 0}}}}\n"
            case 3:
                text += "  - name: skipped \(index)\n    skip: later\n    request: {url: /skipped}\n"
            case 4:
                text += "  - name: \"row \(index) {{ n }}\"\n    forEach: [{n: a}, {n: b}]\n"
                text += "    request: {url: \"rows/{{ n }}\"}\n"
            case 5:
                text +=
                    "  - name: ünïcödé ✓ \(index)\n    request: {url: \"search\", query: {q: 'ä b', page: '\(index)'}}\n"
                text += "    expect: {body: {matches: '^\\{'}}\n"
            case 6:
                text +=
                    "  - name: text \(index)\n    request: {url: text}\n    expect: {body: {contains: \"\(long)\"}}\n"
            default:
                text += "  - name: when \(index)\n    when: \"{{ id }} == '7'\"\n    request: {url: \"w/\(index)\"}\n"
            }
            if broken {
                if index == count / 10 { text += "    stauts: 200\n" }
                if index == count / 2 + 8 { text += "  - name: item 8\n    request: {url: dup}\n" }
                if index == count * 3 / 4 {
                    text += "  - name: bad path\n    request: {url: x}\n    expect: {json: {'$[': 1}}\n"
                }
                if index == count - 3 { text += "  - name: unknown\n    request: {url: \"{{ nope }}\"}\n" }
            }
        }
        return text
    }

    private func load(_ text: String, parallel: Bool) -> Result<Suite, SuiteLoadError> {
        var loader = SuiteLoader(environment: [:])
        loader.parsesTestsInParallel = parallel
        do throws(SuiteLoadError) {
            return .success(try loader.load(source: text, file: "/tmp/big.yaml"))
        } catch {
            return .failure(error)
        }
    }

    @Test func aLongValidListParsesInPartsToTheSameSuite() throws {
        let text = Self.suiteText(count: 6_000)
        let parallel = try load(text, parallel: true).get()
        let serial = try load(text, parallel: false).get()
        #expect(parallel.tests.count == 6_000 + 750) // each forEach test gives two rows
        #expect(parallel.tests == serial.tests)
        #expect(parallel.warnings.isEmpty && serial.warnings.isEmpty)

        // The parts did run: the list parsed through the parallel path gives the same tests.
        let (context, _, items) = try Self.testsList(of: text)
        let parts = try #require(TestParser.ParsedParts(items, hasBaseURL: true, in: context))
        let names = items.indices.compactMap { _ in parts.takeNext()?.0.name }
        #expect(names.count == items.count)
        #expect(names.prefix(3) == ["create 1", "flow 2", "skipped 3"])
        #expect(try context.shared.urlChecks.count == serialURLChecks(text))
    }

    /// A context over `text` and the items of its `tests` list, as `SuiteParser` hands them to `TestParser`.
    private static func testsList(
        of text: String
    ) throws -> (context: SuiteParseContext, node: YAMLNode, items: ArraySlice<YAMLNode>) {
        let composed = try YAMLComposer.compose(text)
        let root = try #require(composed.root)
        let context = SuiteParseContext(
            file: "/tmp/big.yaml", directory: "/tmp", document: composed.document, root: root, source: text,
            environment: [:], overrides: [:])
        let testsNode = try #require(
            composed.document.pairs(of: root)?.first { pair in
                composed.document.scalar(pair.key)?.string == "tests"
            }?.value)
        return (context, testsNode, try #require(composed.document.items(of: testsNode)))
    }

    /// The deferred URL checks a one-thread parse of `text` leaves.
    private func serialURLChecks(_ text: String) throws -> Int {
        let list = try Self.testsList(of: text)
        list.context.shared.parsesTestsInParallel = false
        _ = TestParser.tests(list.node, hasBaseURL: true, in: list.context)
        return list.context.shared.urlChecks.count
    }

    @Test func aLongListWithErrorsReportsWhatTheOneThreadParseReports() {
        let text = Self.suiteText(count: 6_000, broken: true)
        guard case .failure(let parallel) = load(text, parallel: true),
            case .failure(let serial) = load(text, parallel: false)
        else {
            Issue.record("the broken suite loaded")
            return
        }
        #expect(parallel.diagnostics.count >= 4)
        #expect(parallel.diagnostics.map(Self.text(of:)) == serial.diagnostics.map(Self.text(of:)))
        let messages = parallel.diagnostics.map(\.message).joined(separator: "\n")
        #expect(messages.contains("unknown key 'stauts'"), "\(messages)")
        #expect(messages.contains("duplicate test name 'item 8'"), "\(messages)")
        #expect(messages.contains("nope"), "\(messages)")
    }

    /// Everything a diagnostic says, as one text.
    private static func text(of diagnostic: Diagnostic) -> String {
        "\(diagnostic.location) \(diagnostic.severity) \(diagnostic.length) \(diagnostic.message) \(diagnostic.note ?? "")"
    }

    /// After a parse in parts, the names are checked as after one thread's (`ScopeChecker`): the environment
    /// variables the tests of every part use are all kept, and a list whose only problems are names nobody defined
    /// reports what one thread reports.
    @Test func namesAreCheckedAsAfterOneThreadsParse() throws {
        func text(undefined: Bool) -> String {
            var text = "name: names\nbaseURL: http://127.0.0.1:9/\nvariables: {id: '7'}\ntests:\n"
            for index in 1...4_000 {
                var url = "items/{{ id }}/\(index)"
                if index == 10 { url += "?a={{ env.FIRST_PART }}" }
                if index == 3_990 { url += "?b={{ env.LAST_PART }}" }
                if undefined, index % 1_000 == 7 { url += "?c={{ missing\(index) }}" }
                text += "  - name: t\(index)\n    request: {url: \"\(url)\"}\n"
            }
            return text
        }
        let environment = ["FIRST_PART": "one", "LAST_PART": "two", "UNUSED": "three"]
        func load(_ text: String, parallel: Bool) -> Result<Suite, SuiteLoadError> {
            var loader = SuiteLoader(environment: environment)
            loader.parsesTestsInParallel = parallel
            do throws(SuiteLoadError) {
                return .success(try loader.load(source: text, file: "/tmp/names.yaml"))
            } catch {
                return .failure(error)
            }
        }
        let parallel = try load(text(undefined: false), parallel: true).get()
        let serial = try load(text(undefined: false), parallel: false).get()
        #expect(parallel.environment == ["FIRST_PART": "one", "LAST_PART": "two"])
        #expect(parallel.environment == serial.environment)
        guard case .failure(let inParts) = load(text(undefined: true), parallel: true),
            case .failure(let oneThread) = load(text(undefined: true), parallel: false)
        else {
            Issue.record("the suite with undefined names loaded")
            return
        }
        #expect(inParts.diagnostics.count == 4)
        #expect(inParts.diagnostics.map(Self.text(of:)) == oneThread.diagnostics.map(Self.text(of:)))
    }

    /// A long list without `forEach`, of several shapes (steps, skips, non-ASCII names, checks); `repeats` names
    /// the items whose name repeats an earlier one: `name(of:)` gives item `index` the name of item `repeats[index]`.
    static func plainSuiteText(count: Int, repeats: [Int: Int] = [:]) -> String {
        func name(_ index: Int) -> String { index % 5 == 3 ? "ünïcödé ✓ \(index)" : "t\(index)" }
        var text = "name: plain\nbaseURL: http://127.0.0.1:9/\nvariables: {id: '7'}\ntests:\n"
        for index in 1...count {
            text += "  - name: \"\(name(repeats[index] ?? index))\"\n"
            switch index % 4 {
            case 0:
                text += "    request: {url: \"items/\(index).json\"}\n"
                text += "    expect: {status: 200, json: {$.name: a}}\n"
            case 1: text += "    steps:\n      - request: {url: login}\n        capture: {t: {jsonpath: $.t}}\n"
            case 2: text += "    skip: later\n    request: {url: \"s/{{ id }}\", headers: {X-N: \"\(index)\"}}\n"
            default: text += "    tags: [a]\n    request: {method: POST, url: x, json: {n: \(index)}}\n"
            }
        }
        return text
    }

    /// The tests `TestParser.tests` gives for `text`, in parts or on one thread, and the diagnostics it reports.
    private func parsedTests(_ text: String, parallel: Bool) throws -> (tests: [TestCase], diagnostics: [String]) {
        let list = try Self.testsList(of: text)
        list.context.shared.parsesTestsInParallel = parallel
        let tests = TestParser.tests(list.node, hasBaseURL: true, in: list.context)
        return (tests, list.context.diagnostics.map(Self.text(of:)))
    }

    /// Without `forEach`, the parts' array is the list's tests (`ParsedParts.takeTests()`): the same tests as one
    /// thread gives, and a repeated name reported and left out as one thread does it, in order, wherever it is (in
    /// the first part or the last, next to its first use or in another part, the same name many times over).
    @Test func aListWithoutForEachIsThePartsArray() throws {
        let count = 6_000
        let text = Self.plainSuiteText(count: count)
        let (context, _, items) = try Self.testsList(of: text)
        let parts = try #require(TestParser.ParsedParts(items, hasBaseURL: true, in: context))
        #expect(!parts.hasForEach)
        #expect(parts.takeTests().map(\.name).prefix(4) == ["t1", "t2", "ünïcödé ✓ 3", "t4"])
        let parallel = try parsedTests(text, parallel: true)
        let serial = try parsedTests(text, parallel: false)
        #expect(parallel.tests.count == count && parallel.diagnostics.isEmpty)
        #expect(parallel.tests == serial.tests)

        var repeats: [Int: Int] = [2: 1, 3: 1, 10: 8, 2_999: 2_998, 3_001: 5, 5_999: 4_000, 6_000: 1]
        for index in stride(from: 4_100, to: 4_600, by: 1) { repeats[index] = 4_050 }
        let repeated = Self.plainSuiteText(count: count, repeats: repeats)
        let parallelWithRepeats = try parsedTests(repeated, parallel: true)
        let serialWithRepeats = try parsedTests(repeated, parallel: false)
        #expect(parallelWithRepeats.tests.count == count - repeats.count)
        #expect(parallelWithRepeats.tests == serialWithRepeats.tests)
        #expect(parallelWithRepeats.diagnostics == serialWithRepeats.diagnostics)
        #expect(parallelWithRepeats.diagnostics.count == repeats.count)
        #expect(parallelWithRepeats.diagnostics.first?.contains("duplicate test name 't1'") == true)
        guard case .failure(let inParts) = load(repeated, parallel: true),
            case .failure(let oneThread) = load(repeated, parallel: false)
        else {
            Issue.record("the suite with repeated names loaded")
            return
        }
        #expect(inParts.diagnostics.map(Self.text(of:)) == oneThread.diagnostics.map(Self.text(of:)))
    }

    @Test func aShortListIsParsedOnOneThread() throws {
        let text = Self.suiteText(count: TestParser.parallelThreshold - 1)
        let (context, _, items) = try Self.testsList(of: text)
        #expect(TestParser.ParsedParts(items, hasBaseURL: true, in: context) == nil)
    }
}
