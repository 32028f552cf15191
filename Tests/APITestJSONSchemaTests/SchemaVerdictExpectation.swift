import APITestJSON
import APITestJSONSchema
import Testing

/// How a quick check's answer on a tape is held against the full evaluation's verdict.
enum QuickVerdictExpectation {
    /// The quick check must answer, with the evaluation's verdict.
    case answers
    /// The quick check may decline (`nil`: the full evaluation decides); when it answers, it must agree.
    case mayDecline
}

/// Holds the full evaluation of `instanceText`, parsed as a tape, against the schema `schemaText` to `expected`,
/// and the quick check's answer on the same tape as `quick` says.
func expectTapeVerdict(
    _ schemaText: String, _ instanceText: String, _ expected: Bool, quick: QuickVerdictExpectation,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let schema = try JSONSchema(JSONParser.parse(schemaText))
    let tape = try JSONTape(parsing: Array(instanceText.utf8))
    #expect(schema.validate(tape).isValid == expected, "evaluator on \(instanceText)", sourceLocation: sourceLocation)
    let answer = schema.quickVerdict(tape)
    switch quick {
    case .answers:
        #expect(answer == expected, "quick check of a tape on \(instanceText)", sourceLocation: sourceLocation)
    case .mayDecline:
        #expect(answer == nil || answer == expected, "quick check of \(instanceText)", sourceLocation: sourceLocation)
    }
}
