import APITestSecurity
import APITestYAML

/// The editor schema of the suite format (`schemas/apitest.schema.json`, JSON Schema draft 2020-12) and of the
/// files suites include (`schemas/apitest-include.schema.json`), built from the same declarations the loader reads:
/// each construct's properties are its key enum's cases (``SuiteKey``), each with the fragment its `schema` gives.
/// The definitions here are the shapes several keys share (text, templates, durations, checks ...).
///
/// `EditorSchemaTests` fails when a committed file differs from what this builds; regenerate both with
/// `APITEST_UPDATE_EXPECTED=1 swift test --filter EditorSchemaTests`.
package enum SuiteSchema {
    /// The schema of a suite file.
    package static var suite: SchemaValue {
        [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "apitest suite",
            "description": .string(
                "A suite of HTTP API tests for apitest (docs/suite-format.md). Point the YAML language server at this "
                    + "file with `# yaml-language-server: $schema=<path>/apitest.schema.json`."),
            "type": "object",
            "additionalProperties": false,
            "required": ["tests"],
            "properties": SuiteParser.Key.properties,
            "$defs": definitions,
        ]
    }

    /// The schema of a file that suites include: shared settings (`include:` at the top level) or shared steps
    /// (`- include:` as a step).
    package static var included: SchemaValue {
        [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "apitest included file",
            "description": .string(
                "A file that apitest suites include (docs/suite-format.md, `include`): shared settings ("
                    + IncludeParser.Key.names.joined(separator: ", ")
                    + "), or shared steps (a list of steps, or a map with `steps`). Point the YAML language server at "
                    + "this file with `# yaml-language-server: $schema=<path>/apitest-include.schema.json`."),
            "anyOf": [
                [
                    "description": "Shared settings.", "type": "object", "additionalProperties": false,
                    "properties": IncludeParser.Key.properties,
                ],
                [
                    "description": "Shared steps, as a map.", "type": "object", "additionalProperties": false,
                    "required": ["steps"], "properties": IncludeParser.StepsKey.properties,
                ],
                .described("Shared steps, as a list.", ref: "steps"),
            ],
            "$defs": definitions,
        ]
    }

    // MARK: - Patterns

    /// An HTTP token (a header name, a method).
    static let token: SchemaValue = #"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"#
    /// A variable name (not `env.*`).
    static let variableName: SchemaValue = #"^(?!env\.)[A-Za-z_][A-Za-z0-9_.-]*$"#
    /// Text, a number or a boolean (a scalar taken as text).
    static let scalarTypes: SchemaValue = ["string", "number", "boolean"]

    // MARK: - Definitions

    /// The shared definitions, `$defs`.
    static var definitions: SchemaValue {
        .members(
            [
                ("text", text), ("template", template), ("filePath", filePath), ("duration", duration),
                ("headers", headers),
                ("followRedirects", .described("Follow 3xx redirects (default true).", ["type": "boolean"])),
                (
                    "compressed",
                    .described(
                        "Ask for a compressed response (Accept-Encoding with every encoding libcurl decodes) and decode "
                            + "it (default true); false sends no Accept-Encoding, as curl does without --compressed.",
                        ["type": "boolean"])
                ),
                (
                    "maxRedirects",
                    .described(
                        "How many redirects to follow at most.", ["type": "integer", "minimum": 0, "maximum": 1000])
                ),
                ("variables", variables),
                ("auth", AuthSpec.Kind.definition),
                (
                    "defaults",
                    .described(
                        "Settings for every request.",
                        [
                            "type": ["object", "null"], "additionalProperties": false,
                            "properties": SettingsParser.DefaultsKey.properties.merged(
                                with: TransportSpec.Key.properties),
                        ])
                ),
                ("retry", RetryParser.Key.definition),
                ("forEach", ForEachParser.FileKey.definition),
                ("literalValue", literalValue),
                ("security", SecuritySetting.definition),
                ("openapi", OpenAPISettingParser.Key.definition),
                ("response", ResponseDecodingParser.Key.definition),
                (
                    "include",
                    .described(
                        "Shared settings files (" + IncludeParser.Key.names.joined(separator: ", ")
                            + "), relative to this file; later files and the suite's own settings win.",
                        ["anyOf": [.ref("filePath"), ["type": "array", "items": .ref("filePath")]]])
                ),
                ("pin", ["type": "string", "pattern": #"^sha256//[A-Za-z0-9+/]{43}=$"#]),
                ("request", RequestParser.Key.definition),
                ("websocket", WebSocketParser.Key.definition),
                ("grpc", GRPCParser.Key.definition),
                ("grpcSchema", GRPCParser.SettingKey.definition),
                ("plistValue", plistValue),
                ("multipartPart", BodyParser.PartKey.definition),
            ] + checkDefinitions + [
                ("condition", condition),
                ("stepLoop", StepLoop.Key.definition),
                ("step", StepParser.Key.definition),
                ("steps", ["type": "array", "minItems": 1, "items": .ref("step")]),
                ("test", TestParser.Key.definition),
            ])
    }

    static let text = SchemaValue.described(
        "A text value. Numbers and booleans are taken as written (`8080` is the text \"8080\"); null is an error.",
        ["type": scalarTypes])

    static let template = SchemaValue.described(
        "Text that may hold placeholders: `{{ name }}` (a variable, `--var` value or earlier capture), "
            + "`{{ env.NAME }}` (an environment variable, secret), built-ins such as `{{ random.uuid }}` and "
            + "`{{ now.iso }}`.",
        ["type": scalarTypes])

    static let filePath = SchemaValue.described(
        "A file path relative to the suite file's folder; the file must exist and be a readable regular file when "
            + "the suite loads.",
        ["type": ["string", "number"], "minLength": 1])

    static let duration = SchemaValue.described(
        "A duration greater than zero: `250ms`, `10s`, `1.5s`, `2m`, `1h`, or a bare number of seconds (`10`, `0.5`).",
        [
            "anyOf": [
                ["type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1e9],
                [
                    "type": "string",
                    "pattern": #"^\s*(?![0.]*\s*(?:ms|s|m|h)?\s*$)(?:[0-9]+\.?[0-9]*|\.[0-9]+)\s*(?:ms|s|m|h)?\s*$"#,
                ],
            ]
        ])

    static let headers = SchemaValue.described(
        "Header names (HTTP tokens) and their values, templated; a value cannot contain a line break.",
        [
            "type": ["object", "null"], "propertyNames": ["pattern": token],
            "additionalProperties": [
                "anyOf": [["type": ["number", "boolean"]], ["type": "string", "pattern": #"^[^\r\n]*$"#]]
            ],
        ])

    static let variables = SchemaValue.described(
        "Named values (any YAML value, strings templated); a variable may use the variables before it, `--var` "
            + "values and `env.*`. Names match [A-Za-z_][A-Za-z0-9_.-]* and cannot start with `env.`.",
        ["type": ["object", "null"], "propertyNames": ["pattern": variableName]])

    static let literalValue = SchemaValue.described(
        "Data without placeholders: no string may contain `{{`.",
        [
            "anyOf": [
                ["type": ["number", "boolean", "null"]], ["type": "string", "not": ["pattern": #"\{\{"#]],
                ["type": "array", "items": ["$ref": "#/$defs/literalValue"]],
                ["type": "object", "additionalProperties": ["$ref": "#/$defs/literalValue"]],
            ]
        ])

    static let plistValue: SchemaValue = [
        "anyOf": [
            ["type": scalarTypes], ["type": "array", "items": ["$ref": "#/$defs/plistValue"]],
            ["type": "object", "additionalProperties": ["$ref": "#/$defs/plistValue"]],
        ]
    ]

    static let condition = SchemaValue.described(
        "A condition (docs/suite-format.md#conditions-and-loops): an expression over variables and captures, e.g. "
            + "'{{ count }} > 0', '{{ env.STAGE }} == \"prod\"', 'id exists and not (id in done)'; or true/false.",
        ["anyOf": [["type": "string", "minLength": 1, "pattern": #"\S"#], ["type": "boolean"]]])
}

// MARK: - Key fragments

extension SuiteKey {
    /// The construct's `properties`: each key with its fragment, in declaration order.
    static var properties: SchemaValue {
        .members(allCases.map { ($0.rawValue, $0.schema) })
    }
}
