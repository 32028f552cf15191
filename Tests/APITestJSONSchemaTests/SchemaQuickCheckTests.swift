import APITestJSON
import APITestJSONSchema
import Testing

/// The quick check that `validate` runs first answers only when its answer is the full evaluation's, and leaves
/// to the evaluator what it does not read (the official suite holds it to every expected verdict; these cases pin
/// its edges).
struct SchemaQuickCheckTests {
    private func verdicts(_ schemaText: String, _ instanceText: String) throws -> (tape: Bool?, value: Bool?) {
        let schema = try JSONSchema(JSONParser.parse(schemaText))
        return (
            schema.quickVerdict(try JSONTape(parsing: Array(instanceText.utf8))),
            schema.quickVerdict(try JSONParser.parse(instanceText))
        )
    }

    @Test func settlesCommonSchemasBothWays() throws {
        let item = #"""
            {"type": "object", "required": ["id", "name"], "additionalProperties": false,
             "properties": {"id": {"type": "integer", "minimum": 1}, "name": {"type": "string", "minLength": 1},
                            "roles": {"type": "array", "items": {"enum": ["admin", "user"]}}}}
            """#
        #expect(try verdicts(item, #"{"id": 1, "name": "alice", "roles": ["admin"]}"#) == (true, true))
        #expect(try verdicts(item, #"{"id": 1.0, "name": "a"}"#) == (true, true))
        #expect(try verdicts(item, #"{"id": "1", "name": "alice"}"#) == (false, false))
        #expect(try verdicts(item, #"{"id": 1, "name": ""}"#) == (false, false))
        #expect(try verdicts(item, #"{"id": 1}"#) == (false, false))
        #expect(try verdicts(item, #"{"id": 1, "name": "a", "extra": 0}"#) == (false, false))
        #expect(try verdicts(item, #"{"id": 1, "name": "a", "roles": ["root"]}"#) == (false, false))
    }

    @Test func readsARepeatedMemberNameAsTheEvaluatorDoes() throws {
        // A repeated name counts once, with its last value (as a value tree keeps it).
        let schema = #"{"properties": {"a": {"type": "integer"}}}"#
        #expect(try verdicts(schema, #"{"a": 1, "a": "x"}"#) == (false, false))
        #expect(try verdicts(schema, #"{"a": "x", "a": 1}"#) == (true, true))
        #expect(try verdicts(#"{"maxProperties": 2}"#, #"{"a": 1, "b": 2, "a": 3}"#) == (true, true))
    }

    @Test func leavesKeywordsItDoesNotReadToTheEvaluator() throws {
        #expect(try verdicts(#"{"uniqueItems": true}"#, "[1, 2]") == (nil, nil))
        #expect(try verdicts(#"{"contains": {"type": "string"}, "maxContains": 1}"#, #"["a"]"#) == (nil, nil))
        #expect(try verdicts(#"{"unevaluatedProperties": false}"#, "{}") == (nil, nil))
        // Not knowing a branch of `not` or `oneOf` leaves the whole verdict open, never flips it.
        #expect(try verdicts(#"{"not": {"uniqueItems": true}}"#, "[1, 1]") == (nil, nil))
        #expect(try verdicts(#"{"oneOf": [{"uniqueItems": true}, {"type": "array"}]}"#, "[1]") == (nil, nil))
        // An `anyOf` branch that holds settles it, whatever the others are.
        #expect(try verdicts(#"{"anyOf": [{"uniqueItems": true}, {"type": "array"}]}"#, "[1]") == (true, true))
        // Enough definite matches settle a `contains` without a maximum.
        #expect(try verdicts(#"{"contains": {"uniqueItems": true}, "minContains": 0}"#, "[[1]]") == (true, true))
    }

    @Test func followsReferencesAndGivesUpOnCycles() throws {
        let tree = #"""
            {"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
             "$ref": "#/$defs/node"}
            """#
        #expect(try verdicts(tree, #"{"next": {"next": {}}}"#) == (true, true))
        #expect(try verdicts(tree, #"{"next": {"next": 3}}"#) == (false, false))
        // A reference that consumes nothing never ends: the evaluator reports the cycle.
        let cycle = ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##
        #expect(try verdicts(cycle, "1") == (nil, nil))
        #expect(!(try JSONSchema(JSONParser.parse(cycle))).validate(JSONValue.integer(1)).isValid)
    }

    @Test func honoursRequiredExemptions() throws {
        let schema = try JSONSchema(
            JSONParser.parse(
                #"{"required": ["id", "name"], "properties": {"id": {"readOnly": true}, "name": {"type": "string"}}}"#))
        let request = schema.exemptingRequired(annotatedWith: ["readOnly"])
        let body = try JSONParser.parse(#"{"name": "a"}"#)
        #expect(request.quickVerdict(body) == true)
        #expect(schema.quickVerdict(body) == false)
    }
}
