import APITestJSON
import APITestSuite
import APITestSupport
import Testing

@testable import APITestChecks

@Suite struct PredicateEvaluatorTests {
    let evaluator = PredicateEvaluator()

    @Test func equalityIsJSONEqualityWithTextForHeaders() {
        #expect(evaluator.evaluate(.equals, subject: 1, argument: 1.0).passed)
        #expect(evaluator.evaluate(.equals, subject: ["a": [1, 2]], argument: ["a": [1, 2]]).passed)
        #expect(!evaluator.evaluate(.equals, subject: "1", argument: "01").passed)
        // A header's text equals a scalar argument with the same text; a JSON string does not.
        #expect(evaluator.evaluate(.equals, subject: "5", from: .text, argument: 5).passed)
        #expect(evaluator.evaluate(.equals, subject: "true", from: .text, argument: true).passed)
        #expect(!evaluator.evaluate(.equals, subject: "5", from: .json, argument: 5).passed)
        #expect(!evaluator.evaluate(.equals, subject: "true", from: .json, argument: true).passed)
        #expect(!evaluator.evaluate(.equals, subject: nil, argument: nil).passed, "absent is not null")
        #expect(evaluator.evaluate(.equals, subject: .null, argument: nil).passed)
    }

    @Test func failureTextShowsExpectedAndActual() {
        let outcome = evaluator.evaluate(.equals, subject: "bob", argument: "carol")
        #expect(!outcome.passed)
        #expect(outcome.expectation == #""carol""#)
        #expect(outcome.actual == #""bob""#)
        #expect(evaluator.evaluate(.exists, subject: nil, argument: true).actual == "nothing")
    }

    @Test func aUnitIsShownAfterEveryNumber() {
        let slow = evaluator.evaluate(.lessThan, subject: 2005.189, argument: 500, unit: "ms")
        #expect(!slow.passed)
        #expect((slow.expectation, slow.actual) == ("< 500ms", "2005.189ms"))
        let between = evaluator.evaluate(.between, subject: 3, argument: [100, 200.5], unit: "ms")
        #expect((between.expectation, between.actual) == ("between 100ms and 200.5ms", "3ms"))
        #expect(evaluator.evaluate(.lessThan, subject: 1, argument: 2).expectation == "< 2")
    }

    @Test func containsWorksOnStringsArraysAndObjectKeys() {
        #expect(evaluator.evaluate(.contains, subject: "application/json", argument: "json").passed)
        #expect(evaluator.evaluate(.contains, subject: [1, 2, 3], argument: 2).passed)
        #expect(evaluator.evaluate(.contains, subject: ["k": 1], argument: "k").passed)
        #expect(!evaluator.evaluate(.contains, subject: 12, argument: 1).passed)
        #expect(evaluator.evaluate(.notContains, subject: [1], argument: 2).passed)
        #expect(evaluator.evaluate(.notContains, subject: nil, argument: 2).passed, "absent holds, like notEquals")
    }

    @Test func orderingNeedsNumbers() {
        #expect(evaluator.evaluate(.greaterThan, subject: 3, argument: 2).passed)
        #expect(
            evaluator.evaluate(.greaterThanOrEqual, subject: "10", from: .text, argument: 10).passed,
            "numeric header text")
        #expect(!evaluator.evaluate(.greaterThanOrEqual, subject: "10", from: .json, argument: 10).passed)
        #expect(evaluator.evaluate(.lessThan, subject: 1.5, argument: 2).passed)
        #expect(!evaluator.evaluate(.lessThanOrEqual, subject: "abc", argument: 2).passed)
        #expect(evaluator.evaluate(.lessThanOrEqual, subject: "abc", argument: 2).expectation == "a number <= 2")
    }

    /// At equal values the strict orders fail and the others hold, for numbers (exact at any size) and strings.
    @Test func orderingAtEqualValues() {
        let big = JSONValue.number(JSONNumber(text: "12345678901234567890")!)
        for (subject, argument) in [(5, 5), (5, 5.0), (big, big), ("b", "b")] as [(JSONValue, JSONValue)] {
            #expect(!evaluator.evaluate(.greaterThan, subject: subject, argument: argument).passed)
            #expect(evaluator.evaluate(.greaterThanOrEqual, subject: subject, argument: argument).passed)
            #expect(!evaluator.evaluate(.lessThan, subject: subject, argument: argument).passed)
            #expect(evaluator.evaluate(.lessThanOrEqual, subject: subject, argument: argument).passed)
            #expect(evaluator.evaluate(.between, subject: subject, argument: [argument, argument]).passed)
        }
    }

    @Test func stringPredicatesAndRegex() {
        #expect(evaluator.evaluate(.startsWith, subject: "Bearer x", argument: "Bearer ").passed)
        #expect(evaluator.evaluate(.endsWith, subject: "a.json", argument: ".json").passed)
        #expect(evaluator.evaluate(.matches, subject: "id-42", argument: #"^id-\d+$"#).passed)
        #expect(evaluator.evaluate(.matches, subject: 42, argument: #"^\d+$"#).passed, "numbers match as text")
        #expect(!evaluator.evaluate(.matches, subject: "x", argument: "(").passed)
        #expect(evaluator.evaluate(.matches, subject: "x", argument: "(").expectation.contains("invalid pattern"))
    }

    @Test func aPatternCompiledAtLoadIsTheOneMatched() throws {
        let pattern = try RegularExpression(#"^id-\d+$"#)
        let argument = JSONValue.string(pattern.pattern)
        let outcome = evaluator.evaluate(.matches, subject: "id-42", argument: argument, pattern: pattern)
        #expect(outcome.passed)
        #expect(outcome.expectation == #"to match /^id-\d+$/"#)
        #expect(!evaluator.evaluate(.matches, subject: "id-x", argument: argument, pattern: pattern).passed)
    }

    @Test func existenceAndOneOf() {
        #expect(evaluator.evaluate(.exists, subject: .null, argument: true).passed)
        #expect(evaluator.evaluate(.exists, subject: nil, argument: false).passed)
        #expect(evaluator.evaluate(.oneOf, subject: "b", argument: ["a", "b"]).passed)
        #expect(!evaluator.evaluate(.oneOf, subject: "c", argument: ["a", "b"]).passed)
        #expect(evaluator.evaluate(.notEquals, subject: nil, argument: 1).passed)
    }

    @Test func longValuesAreTruncatedWithTheirSize() {
        let long = JSONValue.string(String(repeating: "x", count: 1000))
        let text = PredicateEvaluator.display(long).truncated(to: 300)
        #expect(text.hasSuffix("… (1002 bytes)"))
        #expect(text.count < 320)
        #expect("short".truncated(to: 300) == "short")
    }
}
