import APITestJSON
import APITestSuite
import Testing

@testable import APITestChecks

/// Patterns known only at run time are compiled once and kept by their code points: the cache was a
/// `[String: RegularExpression]`, so `^e\u0301$` after `^\u00e9$` (canonically equal `String`s) reused the first
/// one's compiled form and the verdict depended on which test ran first.
@Suite struct PatternCacheCodePointTests {
    @Test func canonicallyEqualPatternsAreCompiledApart() {
        let evaluator = PredicateEvaluator()
        let composed = "e\u{301}"
        let precomposed = "\u{E9}"
        #expect(
            evaluator.evaluate(.matches, subject: .string(precomposed), argument: .string("^\(precomposed)$")).passed)
        let second = evaluator.evaluate(.matches, subject: .string(precomposed), argument: .string("^\(composed)$"))
        #expect(!second.passed, "\(second.expectation)")
        #expect(evaluator.evaluate(.matches, subject: .string(composed), argument: .string("^\(composed)$")).passed)
        #expect(!evaluator.evaluate(.matches, subject: .string(composed), argument: .string("^\(precomposed)$")).passed)
    }
}
