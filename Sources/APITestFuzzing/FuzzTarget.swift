/// One parser or decoder of untrusted input, driven by arbitrary bytes: the fuzzers' entry points.
///
/// Each target feeds the bytes to the real code a run or an import uses and lets it answer as it would for a
/// user: a value or a typed error. A target may not crash, trap, hang or grow without bound on any input; the
/// budgets of the loader and the evaluators are what hold them. `apitest-fuzz` drives them with libFuzzer (built
/// with `-sanitize=fuzzer`) or with its own mutation loop, and `APITestFuzzingTests` replays the seed corpus in
/// `Fuzz/corpus/<target>/` on every test run.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// A suite file, through the suite loader (YAML, the model, templates, expressions, JSONPath, regexes).
    case yaml
    /// An expression (`{{ ... }}` without the braces), parsed and evaluated against a small context.
    case expression
    /// A JSONPath query, parsed and run over a fixed document.
    case jsonpath
    /// A JSON text, through the tree parser and the tape (with a query over it).
    case json
    /// A shell text of curl command lines, split and imported, and the suite rendered.
    case curl
    /// A Postman test script, translated to checks.
    case postmanScript = "postman-script"
    /// An OpenAPI document (JSON), loaded and compiled as a contract.
    case openapi
    /// Protobuf: a descriptor set, message bytes decoded to JSON, or JSON encoded to message bytes (first byte).
    case protobuf

    /// Runs the target once on `bytes`.
    package func run(_ bytes: [UInt8]) {
        switch self {
        case .yaml: Self.loadSuite(bytes)
        case .expression: Self.evaluateExpression(bytes)
        case .jsonpath: Self.queryJSONPath(bytes)
        case .json: Self.parseJSON(bytes)
        case .curl: Self.importCurl(bytes)
        case .postmanScript: Self.translatePostmanScript(bytes)
        case .openapi: Self.loadOpenAPI(bytes)
        case .protobuf: Self.runProtobuf(bytes)
        }
    }

    /// The bytes as text, as the command reading them would take them: invalid UTF-8 is repaired, as `String`
    /// does, so the text paths are exercised on every input.
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
