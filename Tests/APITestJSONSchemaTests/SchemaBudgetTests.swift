import APITestJSON
import APITestJSONSchema
import Testing

/// Evaluation has a budget of steps and stops when its task is cancelled: a schema whose `anyOf` branches refer to
/// the same chain (2^N subschemas for N levels) ends with an error saying so instead of running for ever.
@Suite struct SchemaBudgetTests {
    /// `levels` definitions, each `anyOf: [{$ref: next}, {$ref: next}]`, the last `{type: string}`.
    static func chain(levels: Int) throws -> JSONSchema {
        var definitions: [(String, JSONValue)] = []
        for level in 0..<levels {
            let next = obj(["$ref": .string("#/$defs/d\(level + 1)")])
            definitions.append(("d\(level)", obj(["anyOf": .array([next, next])])))
        }
        definitions.append(("d\(levels)", obj(["type": .string("string")])))
        return try JSONSchema(
            obj(["$ref": .string("#/$defs/d0"), "$defs": .object(JSONObject(definitions))]))
    }

    @Test func anExponentialAnyOfChainEndsWithTheBudgetError() throws {
        let schema = try Self.chain(levels: 40)
        // A string is valid through the first branch at every level.
        #expect(schema.validate(.string("x")).isValid)
        let result = schema.validate(.integer(5))
        #expect(!result.isValid)
        #expect(result.errors.map(\.keyword) == ["$budget"])
        let message = try #require(result.errors.first?.message)
        #expect(message.contains("exceeded \(SchemaBudget.minimumSteps + SchemaBudget.stepsPerValue) steps"))
        let tape = try JSONTape(parsing: Array("5".utf8))
        #expect(schema.validate(tape).errors.map(\.keyword) == ["$budget"])
    }

    /// On a body (a tape), a reference's verdict on a value is kept while failures are not recorded: the chain's
    /// failing check is linear, and with an error limit (as the runner sets) its errors are the real ones.
    @Test func onATapeSharedReferencesAreEvaluatedOnce() throws {
        let schema = try Self.chain(levels: 40)
        let result = schema.validate(try JSONTape(parsing: Array("5".utf8)), maximumErrors: 10)
        #expect(!result.isValid)
        #expect(!result.errors.contains { $0.keyword == "$budget" })
        #expect(result.errors.first?.keyword == "anyOf")
        #expect(result.isTruncated)
    }

    @Test func aShortChainGivesItsVerdict() throws {
        let schema = try Self.chain(levels: 8)
        let result = schema.validate(.integer(5))
        #expect(!result.isValid)
        #expect(!result.errors.contains { $0.keyword == "$budget" })
        #expect(result.errors.contains { $0.keyword == "type" })
    }

    @Test func aCancelledEvaluationStopsWithTheCancellationError() async throws {
        let schema = try Self.chain(levels: 40)
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return schema.validate(.integer(5))
        }
        task.cancel()
        let result = await task.value
        #expect(!result.isValid)
        #expect(result.errors.map(\.keyword) == ["$cancelled"])
    }

    @Test func aCancelledEvaluationHasNoVerdictEvenWhenItWouldPass() async throws {
        // `not` over a subschema cut short would pass: a cancelled evaluation is never valid.
        let schema = try JSONSchema(obj(["not": obj(["pattern": .string("^(é|ê)*$")])]))
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return schema.validate(.string(String(repeating: "é", count: 100_000)))
        }
        task.cancel()
        #expect(await !task.value.isValid)
    }
}

/// An object value with members in the order written.
func obj(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
    .object(JSONObject(members.map { (key: $0.key, value: $0.value) }))
}
