import Testing

@testable import APITestHTTP

/// The field names most responses carry are taken from a table made once (issue 38) instead of being decoded for
/// every response: a name is read with exactly its received bytes whether the table has it or not.
@Suite struct CommonFieldNamesTests {
    private func names(_ names: [String]) -> [String] {
        HTTPHeaders(fieldLines: names.flatMap { Array("\($0): v\n".utf8) }).fields.map(\.name)
    }

    @Test func everyTableNameInEverySpellingReadsAsReceived() {
        var spellings: [String] = []
        for name in CommonFieldNames.names {
            spellings += [name, name.lowercased(), name.uppercased(), String(name.dropLast()), name + "x", "X" + name]
        }
        #expect(names(spellings) == spellings)
    }

    @Test func theTableGivesItsOwnSpellingOnlyForTheSameBytes() {
        var found = 0
        for name in CommonFieldNames.names {
            for spelling in [name, name.lowercased(), name.uppercased(), name + " "] {
                let given = Array(spelling.utf8).withUnsafeBufferPointer(CommonFieldNames.name)
                #expect(given == nil || given == spelling, "\(spelling)")
                if given != nil { found += 1 }
            }
        }
        // Every name in its own spelling and in lower case, but where two of them want one slot.
        #expect(found >= CommonFieldNames.names.count * 3 / 2)
        #expect(names(["Content-Type\u{0}", "Caf\u{E9}", "a-very-long-field-name-indeed"]).count == 3)
        #expect(
            names(["Content-Type\u{0}", "Caf\u{E9}", "a-very-long-field-name-indeed"])
                == ["Content-Type\u{0}", "Caf\u{E9}", "a-very-long-field-name-indeed"])
    }
}
