import APITestOpenAPI
import APITestSupport
import Testing

/// `--strict-spec` (``OpenAPIContractOptions/strictSpec``) refuses a document that breaks the OpenAPI structure the
/// lenient load does without, each problem located: no `info`, an `info` without `title` or `version` or with one
/// of another type, no `paths` (3.0; 3.1 needs `paths`, `components` or `webhooks`), a 3.0 operation without
/// `responses`, a response without `description`. The old strict load took every one of these documents; the
/// lenient load still does.
struct StrictStructureTests {
    static let strict = OpenAPIContractOptions(strictSpec: true)

    static let operation = """
        paths:
          /a:
            get:
              responses: {"200": {description: ok}}
        """

    @Test(arguments: [
        ("openapi: 3.0.3\n" + operation, "document has no info", 1),
        ("openapi: 3.0.3\ninfo: {title: t}\n" + operation, "info has no version", 2),
        ("openapi: 3.0.3\ninfo: {version: '1'}\n" + operation, "info has no title", 2),
        ("openapi: 3.0.3\ninfo: {title: [t], version: '1'}\n" + operation, "title must be a string", 2),
        ("openapi: 3.0.3\ninfo: 5\n" + operation, "info must be an object", 2),
        ("openapi: 3.0.3\ninfo: {title: t, version: '1'}\n", "document has no paths", 1),
        ("openapi: 3.1.0\ninfo: {title: t, version: '1'}\n", "document has no paths", 1),
        (
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get: {operationId: x}\n",
            "get has no responses", 5
        ),
        (
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses: {'200': {}}\n",
            "response has no description", 6
        ),
    ])
    func aStructuralProblemIsALocatedErrorWithStrictSpecOnly(yaml: String, message: String, line: Int) {
        let problems = inlineProblems(yaml, options: Self.strict)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first.map { "\($0)".contains(message) } == true, "\(problems)")
        #expect(problems.first?.location.line == line, "\(problems)")
        #expect(inlineProblems(yaml).isEmpty, "the lenient load takes it")
    }

    @Test func aWholeDocumentPasses() {
        let yaml = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n" + Self.operation
        #expect(inlineProblems(yaml, options: Self.strict).isEmpty)
        #expect(
            inlineProblems("openapi: 3.1.0\ninfo: {title: t, version: '1'}\ncomponents: {}\n", options: Self.strict)
                .isEmpty)
    }
}
