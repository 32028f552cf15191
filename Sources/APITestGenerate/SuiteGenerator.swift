package import APITestOpenAPI

/// Generates suites from an OpenAPI document (`apitest generate openapi`): a file per tag or path segment, a test
/// per operation with a request built from the document's examples and schemas and checked against it, the
/// status the operation declares first among its 2xx, and `openapi:` so the run checks every response against the
/// document. An operation that cannot be tested honestly is a comment saying why.
///
/// ```swift
/// let suites = SuiteGenerator(description: description, options: options).generate()
/// for file in suites.files { print(file.fileName, file.testNames) }
/// ```
///
/// It writes nothing: ``SuiteFileWriter`` does.
package struct SuiteGenerator {
    /// The document.
    let description: OpenAPIDescription
    /// What was asked for.
    let options: SuiteGenerationOptions

    /// A generator of suites for `description`.
    package init(description: OpenAPIDescription, options: SuiteGenerationOptions) {
        self.description = description
        self.options = options
    }

    /// The suites, and the operations skipped.
    package func generate() -> GeneratedSuites {
        let planner = OperationPlanner(description: description)
        let plans = description.operations.map(planner.plan)
        var files: [GeneratedSuiteFile] = []
        var skipped: [SkippedOperation] = []
        var environment: [String] = []
        for group in OperationGrouping.groups(description.operations, by: options.grouping) {
            let entries = group.operations.map { (description.operations[$0], plans[$0]) }
            let hasTest = entries.contains { if case .test = $0.1 { true } else { false } }
            for (operation, plan) in entries {
                if case .skipped(let reason) = plan {
                    skipped.append(
                        SkippedOperation(
                            name: operation.displayName, methodAndPath: operation.operation.methodAndPath,
                            reason: reason, fileName: hasTest ? group.fileName : nil))
                }
            }
            guard hasTest else { continue }
            let file = SuiteFileBuilder(description: description, options: options).build(group, entries: entries)
            for name in file.environment where !environment.contains(name) { environment.append(name) }
            files.append(file.file)
        }
        return GeneratedSuites(
            files: files, skipped: skipped, environment: environment, operationCount: description.operations.count)
    }
}
