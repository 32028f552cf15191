import Foundation
import Testing

/// Issue 37 end to end against the demo API: the documented loop (`capture: {ids: {jsonpath: "$[*].id"}}`, then
/// `forEach: {items: "{{ ids }}"}`) runs over every id a non-singular JSONPath selected (it used to stop at
/// `'{{ ids }}' is not a list: 1`), an empty selection is an empty loop, and an unnamed step of a `forEach` group is
/// called `step N` by its place in the group, not in the test (steps outside groups keep their place in the test,
/// where a group's steps count one each).
@Suite struct ForEachCaptureListTests {
    /// Runs `yaml` with a JSON report and returns the result and the labels of its first test's steps.
    static func run(_ yaml: String) async throws -> (ProcessResult, [String]) {
        let suite = try writeTemporarySuite(yaml)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await runAPITest(["run", suite.path, "--jobs", "1", "--report-json", report.path])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let suites = json?["suites"] as? [[String: Any]]
        let tests = suites?.first?["tests"] as? [[String: Any]] ?? []
        let steps = tests.first?["steps"] as? [[String: Any]] ?? []
        return (result, steps.map { ($0["label"] as? String) ?? "step \((($0["index"] as? Int) ?? -1) + 1)" })
    }

    @Test func theDocumentedLoopRunsOverEveryCapturedId() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let (result, labels) = try await Self.run(
            """
            name: pets
            baseURL: \(demo.baseURL)/petstore/
            tests:
              - name: delete every pet
                steps:
                  - request: {url: pets}
                    capture: {ids: {jsonpath: "$[*].id"}, first: {jsonpath: "$[*].id", filters: [first]}}
                  - name: delete pet
                    forEach: {items: "{{ ids }}", as: id, maxItems: 5000}
                    when: "id > {{ first }}"
                    request: {method: DELETE, url: "pets/{{ id }}"}
                    expect: {status: [204, 404]}
                  - request: {url: pets}
                    expect:
                      assert: [{jsonpath: "$[*].id", equals: [1]}, {jsonpath: "$[*].id", filters: [count], equals: 1}]
            """)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            labels == [
                "step 1", "delete pet › 1/3 (id=1)", "delete pet › 2/3 (id=2)", "delete pet › 3/3 (id=3)", "step 3",
            ], "\(labels)")
        #expect(result.stdout.contains("1 test: 1 passed"), "\(result.stdout)")
    }

    @Test func aPathThatSelectsNothingIsAnEmptyLoop() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let (result, labels) = try await Self.run(
            """
            name: none
            baseURL: \(demo.baseURL)/petstore/
            tests:
              - name: delete no pet
                steps:
                  - request: {url: pets}
                    capture: {ids: {jsonpath: "$[?@.id > 100].id"}}
                  - name: delete pet
                    forEach: {items: "{{ ids }}", as: id}
                    request: {method: DELETE, url: "pets/{{ id }}"}
                  - request: {method: POST, url: "pets", json: {name: "Kit", seen: "{{ ids }}"}}
            """)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(labels == ["step 1", "delete pet › no items", "step 3"], "\(labels)")
    }

    @Test func anUnnamedStepOfAGroupIsNamedByItsPlaceInTheGroup() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let (result, labels) = try await Self.run(
            """
            name: groups
            baseURL: \(demo.baseURL)/petstore/
            tests:
              - name: read each pet twice
                steps:
                  - request: {url: "pets?limit=2"}
                    capture: {ids: {jsonpath: "$[*].id"}}
                  - request: {url: pets}
                  - name: pet
                    forEach: {items: "{{ ids }}", as: id}
                    steps:
                      - request: {url: "pets/{{ id }}"}
                      - name: again
                        request: {url: "pets/{{ id }}"}
                      - request: {url: "pets/{{ id }}"}
                        when: "id > 1"
                  - forEach: {items: "{{ ids }}", as: id}
                    steps:
                      - request: {url: "pets/{{ id }}"}
            """)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            labels == [
                "step 1", "step 2",
                "pet › 1/2 (id=1) › step 1", "pet › 1/2 (id=1) › again", "pet › 1/2 (id=1) › step 3",
                "pet › 2/2 (id=2) › step 1", "pet › 2/2 (id=2) › again", "pet › 2/2 (id=2) › step 3",
                "step 6 › 1/2 (id=1) › step 1", "step 6 › 2/2 (id=2) › step 1",
            ], "\(labels)")
    }
}
