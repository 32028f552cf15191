import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// Issue 41 item 4: `expect.snapshot` loads as a name or as `{name, ignore, redact}`; a bad name, an unknown key, a bad
/// path and an unknown pattern are located errors (with a did-you-mean). The old loader refused `snapshot` itself
/// (`unknown key 'snapshot' in expect`).
struct SnapshotParserTests {
    func suite(_ snapshot: String) -> String {
        "name: s\ntests:\n  - name: a\n    request: {url: \"http://api.example.test/\"}\n    expect:\n      snapshot: \(snapshot)\n"
    }

    @Test func aNameAndTheMapFormLoad() throws {
        let short = try loadSuite(suite("user"))
        let spec = try #require(short.tests[0].steps[0].expect.snapshot)
        #expect(spec.name == "user" && spec.ignore.isEmpty && spec.redact.isEmpty)
        #expect(spec.location.line == 6)

        let full = try loadSuite(
            suite("{name: list-users.v2, ignore: [$.id, \"$.items[*].createdAt\"], redact: [uuid, datetime, date]}"))
        let map = try #require(full.tests[0].steps[0].expect.snapshot)
        #expect(map.name == "list-users.v2")
        #expect(map.ignore.map(\.expression) == ["$.id", "$.items[*].createdAt"])
        #expect(map.redact == [.uuid, .datetime, .date])
    }

    @Test(arguments: [
        ("../escape", "it holds a path separator"), ("a/b", "it holds a path separator"),
        ("a\\\\b", "it holds a path separator"), ("a..b", "it holds '..'"), ("\"\"", "it is empty"),
        (".hidden", "starting with a letter or a digit"), ("\"a b\"", "letters, digits"),
    ])
    func badNamesAreLocatedErrors(_ name: String, _ reason: String) {
        let found = errors(suite(name))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("test.yaml:6:17") == true, "\(found)")
        #expect(found.first?.contains("invalid snapshot name") == true, "\(found)")
        #expect(found.first?.contains(reason) == true, "\(found)")
        let inMap = errors(suite("{name: \(name)}"))
        #expect(inMap.first?.contains("invalid snapshot name") == true, "\(inMap)")
    }

    /// A snapshot in a retry's `until` would be ignored: it is refused at its place.
    @Test func aSnapshotInUntilIsAnError() {
        let yaml = """
            name: s
            tests:
              - name: a
                request: {url: "http://api.example.test/"}
                retry: {attempts: 3, until: {status: 200, snapshot: user}}
            """
        let found = errors(yaml)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("test.yaml:5:57") == true, "\(found)")
        #expect(found.first?.contains("'snapshot' does not apply to 'until'") == true, "\(found)")
    }

    @Test func unknownKeysPatternsAndPathsAreLocatedWithSuggestions() {
        let key = errors(suite("{name: user, ignor: [$.id]}"))
        #expect(key.count == 1 && key[0].contains("unknown key 'ignor' in snapshot; did you mean 'ignore'?"), "\(key)")
        #expect(key.first?.contains("test.yaml:6:30") == true, "\(key)")

        let pattern = errors(suite("{name: user, redact: [uuid, dates]}"))
        #expect(pattern.count == 1, "\(pattern)")
        #expect(pattern.first?.contains("unknown redact pattern 'dates'; did you mean 'date'?") == true, "\(pattern)")

        let path = errors(suite("{name: user, ignore: [\"$.a[\"]}"))
        #expect(path.count == 1 && path[0].contains("invalid JSONPath '$.a['"), "\(path)")

        let noName = errors(suite("{ignore: [$.id]}"))
        #expect(noName.count == 1 && noName[0].contains("'snapshot' needs a 'name'"), "\(noName)")

        let wrongType = errors(suite("[user]"))
        #expect(wrongType.count == 1 && wrongType[0].contains("snapshot"), "\(wrongType)")
    }

    /// Two steps of one suite with one snapshot name would write one file, the later silently replacing the earlier
    /// (the old loader accepted it, and the next run failed one of them): the later is a located error naming the
    /// earlier's place.
    @Test func aSnapshotNameUsedByTwoStepsIsALocatedErrorNamingBoth() {
        let yaml = """
            name: dup
            baseURL: http://api.example.test
            setup:
              - request: {url: /setup}
                expect: {snapshot: {name: other}}
            tests:
              - name: a
                request: {url: /health}
                expect: {snapshot: same}
              - name: b
                request: {url: /json}
                expect: {snapshot: same}
              - name: c
                steps:
                  - request: {url: /json}
                    expect: {snapshot: {name: c, ignore: ["$.nope"]}}
                  - request: {url: /json}
                    expect: {snapshot: {name: other}}
            """
        let found = errors(yaml)
        #expect(found.count == 2, "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix("suites/test.yaml:12:") && $0.contains("snapshot name 'same' is already used at ")
                    && $0.contains("test.yaml:9:") && $0.contains("(test 'a')")
            }, "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix("suites/test.yaml:18:") && $0.contains("snapshot name 'other' is already used at ")
                    && $0.contains("test.yaml:5:") && $0.contains("(setup)")
            }, "\(found)")
    }

    /// A step that `forEach` repeats (its own, its group's, or its test's rows) would write its snapshot once per
    /// run: refused, saying so, once per step.
    @Test func aSnapshotInAStepThatForEachRepeatsIsRefused() {
        let cases = [
            """
            variables: {ids: [1, 2]}
            tests:
              - name: t
                steps:
                  - request: {url: "http://h/{{ id }}"}
                    forEach: {items: "{{ ids }}", as: id}
                    expect: {snapshot: item}
            """,
            """
            variables: {ids: [1, 2]}
            tests:
              - name: t
                steps:
                  - forEach: {items: "{{ ids }}", as: id}
                    steps:
                      - request: {url: "http://h/{{ id }}"}
                        expect: {snapshot: item}
            """,
            """
            tests:
              - name: t
                forEach: [{id: 1}, {id: 2}, {id: 3}]
                request: {url: "http://h/{{ id }}"}
                expect: {snapshot: item}
            """,
        ]
        for yaml in cases {
            let found = errors(yaml)
            #expect(found.count == 1, "\(yaml): \(found)")
            #expect(
                found.first?.contains("snapshot 'item' is in a step that forEach repeats: every run would write")
                    == true,
                "\(yaml): \(found)")
        }
        // Steps after a forEach group are not repeated.
        let after = """
            variables: {ids: [1]}
            tests:
              - name: t
                steps:
                  - forEach: {items: "{{ ids }}", as: id}
                    steps:
                      - request: {url: "http://h/{{ id }}"}
                  - request: {url: "http://h/"}
                    expect: {snapshot: item}
            """
        #expect(errors(after).isEmpty, "\(errors(after))")
    }
}
