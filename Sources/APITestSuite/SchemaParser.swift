import APITestJSON
import APITestJSONSchema
import APITestSupport
import APITestYAML
import Foundation

/// `expect.schema`: a schema file (JSON, relative to the suite) or an inline schema, compiled on load.
enum SchemaParser {
    /// The schema of `expect.schema`, compiled; `nil` after reporting a missing file or an invalid schema.
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> SchemaExpectation? {
        let at = context.location(of: node)
        if context.isMapping(node) {
            let value = context.templateValue(node)
            guard value.templates.allSatisfy(\.isLiteral), let json = try? value.render(TemplateContext()) else {
                context.error("an inline schema cannot use placeholders", at: node)
                return nil
            }
            // Local files only (never the network), like every other file a suite names.
            let resolver = DirectoryJSONSchemaResolver(directory: URL(fileURLWithPath: "/", isDirectory: true))
            do {
                let schema = try JSONSchema(
                    json,
                    baseURI: URL(fileURLWithPath: context.directory, isDirectory: true).appendingPathComponent(
                        "inline.json"
                    )
                    .absoluteString, resolver: resolver)
                return SchemaExpectation(schema: schema, source: "inline", location: at)
            } catch {
                context.error("invalid inline schema: \(describe(error))", at: node)
                return nil
            }
        }
        guard let path = context.text(node, for: "schema") else { return nil }
        guard let absolute = context.checkBodyFile(path, at: node, for: "schema") else { return nil }
        if let cached = context.shared.compiledSchemas[absolute] {
            return SchemaExpectation(schema: cached, source: path, location: at)
        }
        let url = URL(fileURLWithPath: absolute)
        do {
            let schema = try JSONSchema(
                contentsOf: url,
                resolver: DirectoryJSONSchemaResolver(directory: URL(fileURLWithPath: "/", isDirectory: true)))
            context.shared.compiledSchemas[absolute] = schema
            return SchemaExpectation(schema: schema, source: path, location: at)
        } catch {
            context.error("invalid schema '\(path)': \(describe(error))", at: node)
            return nil
        }
    }

    /// A schema error without the long base URI of inline schemas; the values it quotes from the schema document (the
    /// reason's, the reference, the pointer's member names) escaped for the display.
    private static func describe(_ error: JSONSchemaError) -> String {
        var text = error.shownReason
        if let reference = error.shownReference, !text.contains(reference) { text += " ($ref \"\(reference)\")" }
        if !error.schemaPath.isEmpty { text += " at \(error.schemaPath.shownAsPointer)" }
        return text
    }
}
