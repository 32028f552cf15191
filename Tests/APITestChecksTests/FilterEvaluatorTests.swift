import APITestJSON
import APITestSuite
import Foundation
import Testing

@testable import APITestChecks

@Suite struct FilterEvaluatorTests {
    let filters = FilterEvaluator(now: ISO8601DateFormatter().date(from: "2026-11-22T12:00:00Z")!)

    private func apply(_ filter: Filter, _ value: JSONValue?) throws -> JSONValue? {
        try filters.apply(filter, to: value).get()
    }

    private func problem(_ filter: Filter, _ value: JSONValue) -> String? {
        if case .failure(let problem) = filters.apply(filter, to: value) { return problem.text }
        return nil
    }

    @Test func collections() throws {
        #expect(try apply(.count, [1, 2, 3]) == 3)
        #expect(try apply(.count, ["a": 1]) == 1)
        #expect(try apply(.count, "héllo") == 5)
        #expect(try apply(.first, [1, 2, 3]) == 1)
        #expect(try apply(.last, [1, 2, 3]) == 3)
        #expect(try apply(.nth(1), [1, 2, 3]) == 2)
        #expect(try apply(.nth(-1), [1, 2, 3]) == 3)
        #expect(try apply(.nth(5), [1, 2, 3]) == nil)
        #expect(try apply(.first, []) == nil)
        #expect(problem(.count, 3) == "filter 'count' needs an array, an object or a string, got integer 3")
        #expect(problem(.first, "abc") == "filter 'first' needs an array, got string \"abc\"")
    }

    @Test func conversions() throws {
        #expect(try apply(.toInt, " 42 ") == 42)
        #expect(try apply(.toInt, 3.9) == 3)
        #expect(try apply(.toInt, "-2.5") == -2)
        #expect(try apply(.toFloat, "1.5") == 1.5)
        #expect(try apply(.toFloat, 2) == 2.0)
        #expect(try apply(.toString, 7) == "7")
        #expect(try apply(.toString, true) == "true")
        #expect(problem(.toInt, "x1") != nil)
        #expect(problem(.toInt, true) != nil)
    }

    @Test func text() throws {
        #expect(try apply(.lowercase, "ÄbC") == "äbc")
        #expect(try apply(.uppercase, "straße") == "STRASSE")
        #expect(try apply(.trim, "  a b \n") == "a b")
        #expect(try apply(.split(", "), "a, b, c") == ["a", "b", "c"])
        #expect(try apply(.replace(pattern: try RegularExpression("(\\d+)"), with: "<$1>"), "a1b22") == "a<1>b<22>")
        #expect(try apply(.regex(try RegularExpression("id=(\\d+)")), "x id=17 y") == "17")
        #expect(try apply(.regex(try RegularExpression("\\d+")), "x 17 y") == "17")
        #expect(try apply(.regex(try RegularExpression("nope(\\d)")), "x 17 y") == nil)
        #expect(try apply(.base64Encode, "hé") == "aMOp")
        #expect(try apply(.base64Decode, "aMOp") == "hé")
        #expect(try apply(.base64Decode, "aGk") == "hi") // missing padding
        #expect(try apply(.base64Decode, "PD8-") == "<?>") // base64url alphabet
        #expect(problem(.base64Decode, "***") == "filter 'base64Decode': \"***\" is not base64")
        #expect(try apply(.urlEncode, "a b&c/é") == "a%20b%26c%2F%C3%A9")
        #expect(try apply(.urlDecode, "a%20b%26c%2F%C3%A9") == "a b&c/é")
        #expect(problem(.lowercase, 1) == "filter 'lowercase' needs a string, got integer 1")
    }

    @Test func jsonpathOnStringsAndValues() throws {
        #expect(try apply(.jsonpath(try JSONPath("$.a[1]")), "{\"a\": [1, 2]}") == 2)
        #expect(try apply(.jsonpath(try JSONPath("$.a[*]")), "{\"a\": [1, 2]}") == [1, 2])
        #expect(try apply(.jsonpath(try JSONPath("$.a")), ["a": "x"]) == "x")
        #expect(
            problem(.jsonpath(try JSONPath("$.a")), "{oops")?.hasPrefix("filter 'jsonpath $.a': the string is not JSON")
                == true)
    }

    @Test func days() throws {
        #expect(try apply(.daysAfterNow, "2026-12-22T12:00:00Z") == 30)
        #expect(try apply(.daysBeforeNow, "2026-11-12") == 10)
        #expect(try apply(.daysAfterNow, "Tue, 22 Dec 2026 12:00:00 GMT") == 30)
        #expect(try apply(.daysBeforeNow, "Thu, 01 Jan 1970 00:00:00 GMT") == 20_779)
        #expect(try apply(.daysAfterNow, "2026-11-21T12:00:00.500Z") == -1)
        #expect(problem(.daysAfterNow, "soon") != nil)
    }

    @Test func absentStaysAbsent() throws {
        #expect(try apply(.count, nil) == nil)
        #expect(try apply(.toInt, nil) == nil)
    }
}

@Suite struct PredicateExtensionsTests {
    let evaluator = PredicateEvaluator()

    @Test func existenceIsEmptyAndTypes() {
        #expect(evaluator.evaluate(.notExists, subject: nil, argument: true).passed)
        #expect(!evaluator.evaluate(.notExists, subject: 1, argument: true).passed)
        #expect(evaluator.evaluate(.notExists, subject: 1, argument: false).passed)
        #expect(evaluator.evaluate(.isEmpty, subject: "", argument: true).passed)
        #expect(evaluator.evaluate(.isEmpty, subject: [], argument: true).passed)
        #expect(evaluator.evaluate(.isEmpty, subject: [1], argument: false).passed)
        #expect(!evaluator.evaluate(.isEmpty, subject: 0, argument: true).passed)
        #expect(evaluator.evaluate(.type, subject: 3.0, argument: "integer").passed)
        #expect(!evaluator.evaluate(.type, subject: 3.5, argument: "integer").passed)
        #expect(evaluator.evaluate(.type, subject: nil as JSONValue?, argument: "null").passed == false)
        #expect(evaluator.evaluate(.type, subject: .null, argument: ["string", "null"]).passed)
        #expect(evaluator.evaluate(.type, subject: "2026-11-22T10:00:00Z", argument: "date").passed)
        #expect(!evaluator.evaluate(.type, subject: "22/11/2026", argument: "date").passed)
        #expect(evaluator.evaluate(.type, subject: "x", argument: "number").actual == "string \"x\"")
    }

    @Test func orderingAndBetween() {
        #expect(evaluator.evaluate(.between, subject: 5, argument: [1, 10]).passed)
        #expect(evaluator.evaluate(.between, subject: 10, argument: [1, 10]).passed)
        #expect(!evaluator.evaluate(.between, subject: 11, argument: [1, 10]).passed)
        #expect(evaluator.evaluate(.between, subject: 11, argument: [1, 10]).expectation == "between 1 and 10")
        #expect(evaluator.evaluate(.lessThan, subject: "2020-01-01", argument: "2021").passed)
        #expect(evaluator.evaluate(.greaterThan, subject: "10", from: .text, argument: 9).passed, "header text")
        #expect(!evaluator.evaluate(.greaterThan, subject: "10", from: .json, argument: 9).passed, "a JSON string")
        #expect(!evaluator.evaluate(.greaterThan, subject: "b", argument: 1).passed)
    }
}

@Suite struct JSONDiffTests {
    @Test func firstDifferenceInDocumentOrder() {
        let expected: JSONValue = ["user": ["name": "a", "roles": ["x", "y"]], "n": 1]
        #expect(
            JSONDiff.firstDifference(
                expected: expected, actual: ["user": ["name": "a", "roles": ["x", "z"]], "n": 1])
                == .init(path: ".user.roles[1]", description: "expected \"y\", got \"z\""))
        #expect(
            JSONDiff.firstDifference(expected: expected, actual: ["user": ["name": "a"], "n": 1])
                == .init(path: ".user.roles", description: "missing (expected [\"x\",\"y\"])"))
        #expect(
            JSONDiff.firstDifference(expected: ["a": 1], actual: ["a": 1, "odd key": 2])
                == .init(path: "['odd key']", description: "unexpected member 2"))
        #expect(
            JSONDiff.firstDifference(expected: [1], actual: [1, 2])
                == .init(path: "[1]", description: "unexpected item 2: the array has 2 item(s), expected 1"))
        #expect(JSONDiff.firstDifference(expected: ["a": 1.0], actual: ["a": 1]) == nil)
        #expect(JSONDiff.firstDifference(expected: 1, actual: 2) == nil)
    }
}
