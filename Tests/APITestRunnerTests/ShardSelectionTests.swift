import APITestRunner
import APITestSuite
import Testing

/// `--shard`, `--filter`, `--tag` and `--exclude-tag` as `TestSelection` applies them to loaded suites.
@Suite struct ShardSelectionTests {
    /// A suite at `root/path` with `count` tests named `t0`, `t1`, ...; test `i` is tagged `even` or `odd`.
    static func suite(_ path: String, tests count: Int, root: String = "/work/ci", name: String? = nil) throws -> Suite
    {
        var yaml = "name: \(name ?? path)\ntests:\n"
        for index in 0..<count {
            yaml += "  - name: t\(index)\n    tags: [\(index % 2 == 0 ? "even" : "odd")]\n"
            yaml += "    steps:\n      - request: {url: 'http://127.0.0.1:9/\(index)'}\n"
            yaml += "      - request: {url: 'http://127.0.0.1:9/\(index)/b'}\n"
        }
        return try SuiteLoader(environment: [:]).load(source: yaml, file: "\(root)/\(path)")
    }

    /// Suites of uneven sizes (1, 7, 3, 12, 2 and 5 tests: 30 in all) in nested folders.
    static func unevenSuites(root: String = "/work/ci") throws -> [Suite] {
        try [
            suite("suites/a.yaml", tests: 1, root: root), suite("suites/users/b.yaml", tests: 7, root: root),
            suite("suites/c.yaml", tests: 3, root: root), suite("suites/orders/d.yaml", tests: 12, root: root),
            suite("suites/e.yaml", tests: 2, root: root), suite("suites/Z.yaml", tests: 5, root: root),
        ]
    }

    /// `relative path #index` of each selected test, the identity that must not depend on order or machine.
    static func identities(_ result: TestSelection.Result) -> [String] {
        result.tests.map { "\($0.relativePath)#\($0.testIndex)" }
    }

    /// `path#index` sorted by path in UTF-8 byte order, then index.
    static func canonicalIdentities(_ items: [(String, Int)]) -> [String] {
        items.sorted { a, b in a.0 != b.0 ? a.0.utf8.lexicographicallyPrecedes(b.0.utf8) : a.1 < b.1 }
            .map { "\($0.0)#\($0.1)" }
    }

    // MARK: - The selection's fingerprint

    /// Every shard of one run carries the same fingerprint of the whole selection: it does not depend on the order
    /// the suite files were given in, nor on the shard, and another selection has another.
    @Test func theFingerprintIsTheSelectionsWhateverTheOrderAndShard() throws {
        let suites = try Self.unevenSuites()
        let inPathOrder = suites.sorted { $0.file.utf8.lexicographicallyPrecedes($1.file.utf8) }
        let given = TestSelection().apply(to: suites).fingerprint
        #expect(given.count == 64)
        #expect(TestSelection().apply(to: inPathOrder).fingerprint == given)
        #expect(TestSelection().apply(to: suites.reversed()).fingerprint == given)
        #expect(TestSelection(shard: try ShardSpec(index: 2, count: 3)).apply(to: suites).fingerprint == given)
        #expect(TestSelection(tags: ["even"]).apply(to: suites).fingerprint != given)
        #expect(TestSelection().apply(to: Array(suites.dropLast())).fingerprint != given)
    }

    // MARK: - Sharding

    @Test(arguments: [1, 2, 3, 5, 8, 30, 31, 45])
    func shardsAreDisjointCompleteAndBalanced(_ count: Int) throws {
        let suites = try Self.unevenSuites()
        let all = Set(Self.identities(TestSelection().apply(to: suites)))
        #expect(all.count == 30)
        var seen: [String: Int] = [:]
        var sizes: [Int] = []
        for index in 1...count {
            let result = TestSelection(shard: try ShardSpec(index: index, count: count)).apply(to: suites)
            let ids = Self.identities(result)
            sizes.append(ids.count)
            for id in ids {
                #expect(seen[id] == nil, "\(id) is in shards \(seen[id] ?? 0) and \(index) of \(count)")
                seen[id] = index
            }
            // A test keeps all of its steps in its shard, and the narrowed suites hold exactly the shard's tests.
            for suite in result.suites {
                for test in suite.tests { #expect(test.steps.count == 2) }
            }
            #expect(result.suites.reduce(0) { $0 + $1.tests.count } == ids.count)
            #expect(result.matchedCount == 30)
        }
        #expect(Set(seen.keys) == all, "the shards together must run every test")
        #expect(sizes.reduce(0, +) == 30)
        #expect(sizes.max()! - sizes.min()! <= 1, "shard sizes \(sizes) differ by more than one")
    }

    @Test func shardsAreContiguousBlocksInCanonicalOrder() throws {
        let suites = try Self.unevenSuites()
        var concatenated: [String] = []
        for index in 1...4 {
            let result = TestSelection(shard: try ShardSpec(index: index, count: 4)).apply(to: suites)
            concatenated += Self.canonicalIdentities(result.tests.map { ($0.relativePath, $0.testIndex) })
        }
        let canonical = Self.canonicalIdentities(
            suites.flatMap { suite in
                suite.tests.indices.map { (String(suite.file.dropFirst("/work/ci/suites/".count)), $0) }
            })
        #expect(concatenated == canonical)
        // Byte order: "Z.yaml" sorts before "a.yaml", and "users/b.yaml" after "orders/d.yaml".
        #expect(canonical.first == "Z.yaml#0")
    }

    @Test(arguments: [2, 3, 5, 8])
    func assignmentIgnoresPathOrderAndCheckoutLocation(_ count: Int) throws {
        let suites = try Self.unevenSuites()
        let reordered = [suites[3], suites[0], suites[5], suites[1], suites[4], suites[2]]
        let elsewhere = try Self.unevenSuites(root: "/home/runner/work/project/checkout")
        for index in 1...count {
            let shard = try ShardSpec(index: index, count: count)
            let reference = Set(Self.identities(TestSelection(shard: shard).apply(to: suites)))
            #expect(Set(Self.identities(TestSelection(shard: shard).apply(to: reordered))) == reference)
            #expect(Set(Self.identities(TestSelection(shard: shard).apply(to: elsewhere))) == reference)
        }
    }

    @Test func shardsApplyAfterFilters() throws {
        let suites = try Self.unevenSuites()
        let odd = TestSelection(tags: ["odd"]).apply(to: suites)
        var union: [String] = []
        var sizes: [Int] = []
        for index in 1...3 {
            let result = TestSelection(tags: ["odd"], shard: try ShardSpec(index: index, count: 3)).apply(to: suites)
            union += Self.identities(result)
            sizes.append(result.tests.count)
            #expect(result.matchedCount == odd.tests.count)
        }
        #expect(Set(union) == Set(Self.identities(odd)))
        #expect(union.count == odd.tests.count)
        #expect(sizes.max()! - sizes.min()! <= 1)
    }

    @Test func relativePathsAreToTheCommonFolder() throws {
        let suites = try [
            Self.suite("x/one.yaml", tests: 1, root: "/r"), Self.suite("x/y/two.yaml", tests: 1, root: "/r"),
        ]
        #expect(TestSelection.relativePaths(of: suites) == ["one.yaml", "y/two.yaml"])
        #expect(TestSelection.relativePaths(of: [suites[1]]) == ["two.yaml"])
    }

    // MARK: - ShardSpec

    @Test func shardSpecParsesOneBasedKOfN() throws {
        let spec = try ShardSpec(parsing: "2/4")
        #expect(spec.index == 2 && spec.count == 4)
        #expect(spec.description == "2/4")
        #expect(try ShardSpec(parsing: "1/1").range(ofTotal: 5) == 0..<5)
        #expect(try ShardSpec(parsing: "1/3").range(ofTotal: 10) == 0..<4)
        #expect(try ShardSpec(parsing: "3/3").range(ofTotal: 10) == 7..<10)
        #expect(try ShardSpec(parsing: "2/4").range(ofTotal: 2) == 1..<2)
        #expect(try ShardSpec(parsing: "3/4").range(ofTotal: 2).isEmpty)
    }

    @Test(arguments: [
        ("0/3", "K is 1-based and must be between 1 and 3"), ("4/3", "K is 1-based and must be between 1 and 3"),
        ("1/0", "the number of shards N must be at least 1"), ("a/b", "expects K/N"), ("1/2/3", "expects K/N"),
        ("2", "expects K/N"), ("/3", "expects K/N"), ("-1/3", "K is 1-based"), ("", "expects K/N"),
    ])
    func badShardSpecsAreRejected(_ text: String, _ message: String) {
        #expect {
            _ = try ShardSpec(parsing: text)
        } throws: { error in
            (error as? ShardSpec.ParseError)?.message.contains(message) == true
        }
    }

    // MARK: - Filters and tags

    @Test func filterMatchesSuiteAndTestNameTogether() throws {
        let suites = try [
            Self.suite("users.yaml", tests: 3, name: "Users API"), Self.suite("orders.yaml", tests: 2, name: "Orders"),
        ]
        func names(_ selection: TestSelection) -> [String] {
            selection.apply(to: suites).tests.map { "\($0.suiteName)/\($0.testName)" }
        }
        #expect(names(TestSelection(filters: [try TestFilter("^Users API › ")])).count == 3)
        #expect(names(TestSelection(filters: [try TestFilter("t1$")])) == ["Users API/t1", "Orders/t1"])
        #expect(names(TestSelection(filters: [try TestFilter("Orders › t0")])) == ["Orders/t0"])
        #expect(names(TestSelection(filters: [try TestFilter("(?i)users api › T2")])) == ["Users API/t2"])
        #expect(
            names(TestSelection(filters: [try TestFilter("^Orders › t1"), try TestFilter("API › t0")]))
                == ["Users API/t0", "Orders/t1"])
        #expect(names(TestSelection(filters: [try TestFilter("nothing")])).isEmpty)
    }

    @Test func invalidFilterNamesTheProblem() {
        #expect {
            _ = try TestFilter("users(")
        } throws: { error in
            "\(error)".contains("--filter 'users(' is not a valid regular expression: expected ')'")
        }
    }

    @Test func tagsSelectAnyAndExclusionWins() throws {
        let yaml = """
            tests:
              - {name: a, tags: [smoke], request: {url: 'http://h/'}}
              - {name: b, tags: [smoke, slow], request: {url: 'http://h/'}}
              - {name: c, tags: [api], request: {url: 'http://h/'}}
              - {name: d, request: {url: 'http://h/'}}
              - {name: e, tags: [smoke], skip: not yet, request: {url: 'http://h/'}}
            """
        let suites = [try SuiteLoader(environment: [:]).load(source: yaml, file: "/r/s.yaml")]
        func names(_ selection: TestSelection) -> [String] { selection.apply(to: suites).tests.map(\.testName) }
        #expect(names(TestSelection()) == ["a", "b", "c", "d", "e"])
        #expect(names(TestSelection(tags: ["smoke"])) == ["a", "b", "e"])
        #expect(names(TestSelection(tags: ["smoke", "api"])) == ["a", "b", "c", "e"])
        #expect(names(TestSelection(tags: ["smoke"], excludedTags: ["slow"])) == ["a", "e"])
        #expect(names(TestSelection(excludedTags: ["smoke"])) == ["c", "d"])
        #expect(names(TestSelection(filters: [try TestFilter("b")], excludedTags: ["slow"])).isEmpty)
        // A skipped test that is selected stays in the run (it is reported as skipped), with its reason.
        let skipped = TestSelection(tags: ["smoke"]).apply(to: suites).tests.last
        #expect(skipped?.skip == "not yet")
        // Suites without a selected test are dropped; the others keep only their selected tests, in file order.
        let narrowed = TestSelection(tags: ["api", "smoke"], excludedTags: ["slow"]).apply(to: suites).suites
        #expect(narrowed.count == 1 && narrowed[0].tests.map(\.name) == ["a", "c", "e"])
        #expect(TestSelection(tags: ["none"]).apply(to: suites).suites.isEmpty)
    }
}
