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

    /// A pattern rendered from a capture is new for every test: the cache keeps at most its limit of them, and a
    /// pattern compiled again after the cache was emptied gives the same verdicts.
    @Test func theCacheOfRenderedPatternsIsBounded() {
        let evaluator = PredicateEvaluator()
        for number in 0..<5_000 {
            let outcome = evaluator.evaluate(
                .matches, subject: .string("order-\(number)-ok"), argument: .string("^order-\(number)-"))
            #expect(outcome.passed, "\(outcome.expectation)")
            #expect(evaluator.cachedPatternCount <= PredicateEvaluator.regexCacheLimit)
        }
        #expect(evaluator.cachedPatternCount > 0)
        #expect(!evaluator.evaluate(.matches, subject: .string("order-7-ok"), argument: .string("^order-8-")).passed)
        #expect(evaluator.evaluate(.matches, subject: .string("order-7-ok"), argument: .string("^order-7-")).passed)
    }
}
