import APITestContractTesting
import Testing

@Suite struct FuzzRandomTests {
    @Test func theSameSeedAndLabelsGiveTheSameStream() {
        var first = FuzzRandom.stream(seed: 42, 3, 1)
        var second = FuzzRandom.stream(seed: 42, 3, 1)
        var other = FuzzRandom.stream(seed: 42, 3, 2)
        let a = (0..<8).map { _ in first.next() }
        #expect(a == (0..<8).map { _ in second.next() })
        #expect(a != (0..<8).map { _ in other.next() })
    }
}
