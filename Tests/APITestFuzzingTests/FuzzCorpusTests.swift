import APITestFuzzing
import Foundation
import Testing

/// The fuzz targets on their seed corpus (`Fuzz/corpus/<target>/`, which also keeps every input a fuzzer found a
/// defect with) and on a seeded mutation pass: each must end on every input, without a crash, in bounded time.
@Suite struct FuzzCorpusTests {
    /// The repository's `Fuzz` folder.
    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func corpus(of target: FuzzTarget) -> [[UInt8]] {
        let folder = fuzzFolder.appendingPathComponent("corpus/\(target.rawValue)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
        return names.filter { $0 != "LICENSE" }.compactMap {
            FileManager.default.contents(atPath: folder.appendingPathComponent($0).path).map { Array($0) }
        }
    }

    static func dictionary(of target: FuzzTarget) -> [[UInt8]] {
        let path = fuzzFolder.appendingPathComponent("dict/\(target.rawValue).dict").path
        return FuzzDictionary.tokens((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyTargetHasASeedCorpusAndADictionary(_ target: FuzzTarget) {
        #expect(Self.corpus(of: target).count >= 5, "Fuzz/corpus/\(target.rawValue) needs seeds")
        #expect(Self.dictionary(of: target).count >= 10, "Fuzz/dict/\(target.rawValue).dict needs tokens")
    }

    @Test(arguments: FuzzTarget.allCases)
    func theCorpusReplays(_ target: FuzzTarget) {
        for input in Self.corpus(of: target) {
            target.run(input)
        }
    }

    /// A short, seeded pass of the mutation loop over each target: the same 300 inputs on every run.
    @Test(arguments: FuzzTarget.allCases)
    func aSeededMutationPassEnds(_ target: FuzzTarget) {
        var fuzzer = MutationFuzzer(
            corpus: Self.corpus(of: target), dictionary: Self.dictionary(of: target), seed: 35, maximumLength: 2048)
        for _ in 0..<300 {
            target.run(fuzzer.next())
        }
    }

    @Test func theMutationLoopIsSeeded() {
        var first = MutationFuzzer(corpus: [Array("hello".utf8)], dictionary: [Array("{{".utf8)], seed: 7)
        var second = MutationFuzzer(corpus: [Array("hello".utf8)], dictionary: [Array("{{".utf8)], seed: 7)
        var third = MutationFuzzer(corpus: [Array("hello".utf8)], dictionary: [Array("{{".utf8)], seed: 8)
        let a = (0..<50).map { _ in first.next() }
        let b = (0..<50).map { _ in second.next() }
        let c = (0..<50).map { _ in third.next() }
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a).count > 10, "mutations must vary the input")
    }

    @Test func dictionariesReadLibFuzzersEscapes() {
        let tokens = FuzzDictionary.tokens("# a comment\nkw1=\"a\\\"b\"\n\"\\x41\\\\\"\nnot an entry\n")
        #expect(tokens == [Array("a\"b".utf8), Array("A\\".utf8)])
    }
}
