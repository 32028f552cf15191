import APITestSuiteWriting
import Testing

/// Test names made unique within a file (`generate openapi`, every importer).
@Suite struct UniqueNameTests {
    @Test func repeatedNamesAreNumberedFromTwo() {
        var names = UniqueName()
        #expect(names.make("login") == "login")
        #expect(names.make("login (2)") == "login (2)") // a real name that looks numbered
        #expect(names.make("login") == "login (3)")
        #expect(names.make("login") == "login (4)")
        #expect(names.make("logout") == "logout")
        #expect(names.make("logout") == "logout (2)")
    }

    @Test func manyOperationsOfOneNameTakeLinearWork() {
        // Trying `name (2)`, `name (3)`, ... from 2 each time tried n²/2 candidates: 12.5 million for 5,000 names.
        var names = UniqueName()
        let count = 5_000
        var made: Set<String> = []
        for _ in 0..<count { made.insert(names.make("listPets")) }
        #expect(made.count == count)
        #expect(made.contains("listPets (\(count))"))
        #expect(names.candidatesTried <= 2 * count)
    }
}
