import APITestJSON
import APITestJSONSchema
import Testing

/// Each failure names the instance path, the keyword, the schema path and a plain message.
struct JSONSchemaErrorReportingTests {
    private func schema(_ text: String, draft: JSONSchemaDraft? = nil) throws -> JSONSchema {
        try JSONSchema(JSONParser.parse(text), draft: draft)
    }

    /// The errors of `instanceText` against `schemaText`, checking that the instance read in place (a tape over
    /// its text) gives the very same errors as its value tree.
    private func errors(_ schemaText: String, _ instanceText: String) throws -> [JSONSchemaValidationError] {
        let compiled = try schema(schemaText)
        let result = compiled.validate(try JSONParser.parse(instanceText))
        #expect(result.isValid == result.errors.isEmpty)
        let tapeResult = compiled.validate(try JSONTape(parsing: Array(instanceText.utf8)))
        #expect(tapeResult.isValid == result.isValid)
        #expect(tapeResult.errors == result.errors)
        return result.errors
    }

    @Test func nestedFailuresNameInstancePathKeywordSchemaPathAndMessage() throws {
        let found = try errors(
            """
            {"type": "object", "properties": {"users": {"type": "array", "items": {
                "type": "object", "required": ["name"],
                "properties": {"age": {"type": "integer", "minimum": 0}}}}}}
            """,
            #"{"users": [{"name": "a", "age": -3}, {"age": 1.5}]}"#)
        #expect(
            found == [
                JSONSchemaValidationError(
                    instancePath: "/users/0/age", keyword: "minimum",
                    schemaPath: "/properties/users/items/properties/age/minimum", message: "must be >= 0, got -3"),
                JSONSchemaValidationError(
                    instancePath: "/users/1", keyword: "required", schemaPath: "/properties/users/items/required",
                    message: #"missing required property "name""#),
                JSONSchemaValidationError(
                    instancePath: "/users/1/age", keyword: "type",
                    schemaPath: "/properties/users/items/properties/age/type", message: "must be integer, got number"),
            ])
    }

    @Test func validInstanceHasNoErrors() throws {
        let result = try schema(#"{"type": "object", "required": ["id"]}"#).validate(["id": 1])
        #expect(result.isValid)
        #expect(result.errors.isEmpty)
    }

    @Test func referencesAppearInTheSchemaPath() throws {
        let found = try errors(
            ##"{"$defs": {"age": {"minimum": 18}}, "properties": {"a": {"$ref": "#/$defs/age"}}}"##, #"{"a": 17}"#)
        #expect(found.map(\.schemaPath) == ["/properties/a/$ref/minimum"])
        #expect(found.map(\.instancePath) == ["/a"])
        #expect(found.map(\.message) == ["must be >= 18, got 17"])
    }

    @Test func additionalPropertyIsReportedAtItsOwnPath() throws {
        let found = try errors(
            #"{"properties": {"a": true}, "additionalProperties": false}"#, #"{"a": 1, "extra": 2}"#)
        #expect(found.count == 1)
        #expect(found.first?.instancePath == "/extra")
        #expect(found.first?.keyword == "additionalProperties")
        #expect(found.first?.schemaPath == "/additionalProperties")
        #expect(found.first?.message == #"property "extra" is not allowed"#)
    }

    @Test func pointerTokensAreEscaped() throws {
        let found = try errors(#"{"properties": {"a/b~c": {"type": "string"}}}"#, #"{"a/b~c": 1}"#)
        #expect(found.first?.instancePath == "/a~1b~0c")
        #expect(found.first?.schemaPath == "/properties/a~1b~0c/type")
    }

    @Test func anyOfReportsTheSummaryFollowedByEachBranch() throws {
        let found = try errors(#"{"anyOf": [{"type": "string"}, {"type": "null"}]}"#, "3")
        #expect(found.map(\.keyword) == ["anyOf", "type", "type"])
        #expect(found.map(\.schemaPath) == ["/anyOf", "/anyOf/0/type", "/anyOf/1/type"])
        #expect(found.first?.message == "must match at least one schema in anyOf")
    }

    @Test func oneOfMatchingTwiceNamesTheBranches() throws {
        let found = try errors(#"{"oneOf": [{"type": "integer"}, {"minimum": 0}]}"#, "3")
        #expect(found.map(\.message) == ["must match exactly one schema in oneOf, matched 2 (0, 1)"])
    }

    @Test func conditionalBranchIsNamedInTheSchemaPath() throws {
        let found = try errors(
            #"{"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["x"]}, "else": {"required": ["y"]}}"#,
            #"{"kind": "a"}"#)
        #expect(found.map(\.schemaPath) == ["/then/required"])
    }

    @Test func containsCountsAreReportedWithTheirKeyword() throws {
        let tooFew = try errors(#"{"contains": {"type": "string"}, "minContains": 2}"#, #"["a", 1]"#)
        #expect(tooFew.map(\.keyword) == ["minContains"])
        #expect(tooFew.map(\.schemaPath) == ["/minContains"])
        let tooMany = try errors(#"{"contains": {"type": "string"}, "maxContains": 1}"#, #"["a", "b"]"#)
        #expect(tooMany.map(\.message) == ["must contain at most 1 matching items, got 2"])
    }

    @Test func propertyNameFailuresSayTheNameIsAtFault() throws {
        let found = try errors(#"{"propertyNames": {"maxLength": 3}}"#, #"{"ok": 1, "toolong": 2}"#)
        #expect(
            found == [
                JSONSchemaValidationError(
                    instancePath: "/toolong", keyword: "maxLength", schemaPath: "/propertyNames/maxLength",
                    message: #"property name "toolong": must be at most 3 characters long, got 7"#)
            ])
    }

    @Test func constReportsExpectedAndActual() throws {
        let found = try errors(#"{"properties": {"v": {"const": {"a": [1, 2]}}}}"#, #"{"v": {"a": [1]}}"#)
        #expect(found.map(\.message) == [#"must be equal to {"a":[1,2]}, got {"a":[1]}"#])
    }

    @Test func unevaluatedPropertiesNamesTheProperty() throws {
        let found = try errors(
            #"{"allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}"#, #"{"a": 1, "b": 2}"#)
        #expect(found.map(\.instancePath) == ["/b"])
        #expect(found.map(\.keyword) == ["unevaluatedProperties"])
    }

    @Test func descriptionReadsAsOneLine() throws {
        let found = try errors(#"{"items": {"maxLength": 2}}"#, #"["abc"]"#)
        #expect(
            found.map(\.description) == [
                "/0: must be at most 2 characters long, got 3 (maxLength at #/items/maxLength)"
            ])
        let root = try errors(#"{"type": "string"}"#, "1")
        #expect(root.map(\.description) == ["(root): must be string, got integer (type at #/type)"])
    }

    // MARK: - Recursion

    @Test func referenceCycleIsAnErrorNotAHang() throws {
        let schema = try JSONSchema(
            ["$defs": ["a": ["$ref": "#/$defs/b"], "b": ["$ref": "#/$defs/a"]], "$ref": "#/$defs/a"])
        let errors = schema.validate(1).errors
        #expect(errors.count == 1)
        #expect(errors.first?.keyword == "$ref")
        #expect(errors.first?.message.contains("reference cycle") == true)
    }

    @Test func deepRecursionStopsBeforeTheStackOnAConcurrencyThread() async throws {
        let schema = try JSONSchema(["type": "object", "additionalProperties": ["$ref": "#"]])
        func nested(_ levels: Int) -> JSONValue {
            var value: JSONValue = [:]
            for _ in 0..<levels { value = ["a": value] }
            return value
        }
        let shallow = nested(100)
        let deep = nested(400)
        #expect(await Task.detached { schema.isValid(shallow) }.value)
        let errors = await Task.detached { schema.validate(deep).errors }.value
        #expect(errors.count == 1)
        #expect(errors.first?.message == "schema nesting exceeds 500 levels")
    }

    // MARK: - Values

    @Test func multipleOfIsExactForDecimals() throws {
        let schema = try schema(#"{"multipleOf": 0.01}"#)
        #expect(schema.isValid(19.99))
        #expect(schema.isValid(0.3))
        #expect(!schema.isValid(0.001))
        #expect(try self.schema(#"{"multipleOf": 0.1}"#).isValid(0.3))
        #expect(schema.validate(0.125).errors.map(\.message) == ["must be a multiple of 0.01, got 0.125"])
    }

    @Test func integerValuedFloatIsAnInteger() throws {
        let schema = try schema(#"{"type": "integer"}"#)
        #expect(schema.isValid(.double(3.0)))
        #expect(!schema.isValid(.double(3.5)))
    }

    @Test func stringLengthCountsCodePoints() throws {
        let schema = try schema(#"{"minLength": 2}"#)
        #expect(!schema.isValid("💩"))
        #expect(schema.isValid("e\u{301}"))
    }

    @Test func enumUsesNumericEquality() throws {
        let schema = try schema(#"{"enum": [1, "a", [true]]}"#)
        #expect(schema.isValid(.double(1.0)))
        #expect(!schema.isValid(true))
        #expect(schema.validate([1]).errors.first?.message == #"must be one of [1, "a", [true]], got [1]"#)
    }

    @Test func patternUsesECMAScriptDigits() throws {
        let schema = try schema(#"{"pattern": "^\\d+$"}"#)
        #expect(schema.isValid("123"))
        #expect(!schema.isValid("١٢٣")) // Arabic-Indic digits are not \d in ECMA-262
    }

    @Test func formatIsAnAnnotationOnly() throws {
        #expect(try schema(#"{"format": "email"}"#).isValid("not an email"))
    }

    // MARK: - Drafts

    @Test func draftIsChosenBySchemaKeywordThenByCaller() throws {
        let tuple = #"{"items": [{"type": "string"}], "additionalItems": false}"#
        let draft7 = try schema(tuple, draft: .draft7)
        #expect(draft7.draft == .draft7)
        #expect(draft7.isValid(["a"]))
        #expect(draft7.validate(["a", 1]).errors.map(\.keyword) == ["additionalItems"])
        // Under 2020-12 (the default) an array-valued `items` is a schema error.
        #expect(throws: JSONSchemaError.self) { try schema(tuple) }
        let declared = try schema(#"{"$schema": "http://json-schema.org/draft-07/schema#", "items": [true]}"#)
        #expect(declared.draft == .draft7)
    }

    @Test func draft7RefIgnoresSiblingsWhile2020AppliesThem() throws {
        let draft7 = try schema(
            ##"{"definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "maxLength": 1}"##, draft: .draft7)
        #expect(draft7.isValid("abc"))
        let draft2020 = try schema(##"{"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 1}"##)
        #expect(!draft2020.isValid("abc"))
    }

    // MARK: - Invalid schemas

    @Test func wrongKeywordTypeIsThrownWithItsPath() throws {
        let error = try #require(throws: JSONSchemaError.self) {
            try schema(#"{"properties": {"a": {"minLength": "3"}}}"#)
        }
        #expect(error.kind == .invalidSchema)
        #expect(error.schemaPath == "/properties/a/minLength")
        #expect(error.reason.contains("non-negative integer"))
    }

    @Test func identifierKeywordsMustBeStrings() throws {
        let error = try #require(throws: JSONSchemaError.self) { try schema(#"{"allOf": [{"$anchor": 1}]}"#) }
        #expect(error.schemaPath == "/allOf/0/$anchor")
        #expect(error.reason == "$anchor must be a string")
        #expect(throws: JSONSchemaError.self) { try schema(#"{"$defs": []}"#) }
    }

    @Test func badMemberIsThrownWithTheMemberInThePath() throws {
        let error = try #require(throws: JSONSchemaError.self) {
            try schema(#"{"dependentRequired": {"a/b": [1]}}"#)
        }
        #expect(error.schemaPath == "/dependentRequired/a~1b")
        #expect(error.reason == "dependentRequired must be an array of strings")
        let draft7 = try #require(throws: JSONSchemaError.self) {
            try schema(#"{"dependencies": {"x": "y"}}"#, draft: .draft7)
        }
        #expect(draft7.schemaPath == "/dependencies/x")
    }

    @Test func invalidPatternIsThrown() throws {
        let error = try #require(throws: JSONSchemaError.self) { try schema(#"{"pattern": "("}"#) }
        #expect(error.schemaPath == "/pattern")
    }

    @Test func nonSchemaValueIsThrown() throws {
        let error = try #require(throws: JSONSchemaError.self) { try schema(#"{"not": 3}"#) }
        #expect(error.schemaPath == "/not")
    }
}
