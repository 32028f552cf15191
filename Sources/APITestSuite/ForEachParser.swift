import APITestJSON
import APITestJSONSchema
import APITestSupport
import APITestYAML
import Foundation

/// `forEach`: a test run once per row of data (inline rows, or a CSV or JSON file), each run named from its row.
enum ForEachParser {
    /// The key of the file form, `{file: rows.csv}`.
    enum FileKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case file

        var schema: SchemaValue {
            .described(
                "A .csv or .json file relative to the suite file.",
                ["type": "string", "pattern": #"\.(?:[cC][sS][vV]|[jJ][sS][oO][nN])$"#])
        }

        /// The definition of a test's `forEach:`: a list of rows, or the file form.
        static var definition: SchemaValue {
            .described(
                "Runs the test once per row: an inline list of maps (column → literal value, no placeholders), or "
                    + "`{file: rows.csv}` / `{file: rows.json}` (a header row of names / an array of objects). Each "
                    + "row's test is named from the test's name filled with the row's values, or the name followed "
                    + "by the values.",
                [
                    "anyOf": [
                        [
                            "type": "array", "minItems": 1,
                            "items": [
                                "type": "object", "propertyNames": ["pattern": SuiteSchema.variableName],
                                "additionalProperties": .ref("literalValue"),
                            ],
                        ],
                        [
                            "type": "object", "additionalProperties": false, "required": ["file"],
                            "properties": properties,
                        ],
                    ]
                ])
        }
    }

    // MARK: - Expansion

    /// The tests a test with `forEach` stands for, one per row, each named from its values; the test itself when
    /// it has no `forEach`.
    static func expand(_ test: TestCase, _ node: YAMLNode, in context: SuiteParseContext) -> [TestCase] {
        guard let forEach = context.plainValue(forKey: TestParser.Key.forEach.rawValue, in: node) else { return [test] }
        guard let rows = Self.rows(forEach, in: context), !rows.isEmpty else {
            if !context.fileHasErrors { context.error("'forEach' has no rows", at: forEach) }
            return []
        }
        let nameNode = context.plainValue(forKey: TestParser.Key.name.rawValue, in: node) ?? node
        var names: [String] = []
        for row in rows {
            guard let name = rowName(test.name, row: row, at: nameNode, in: context) else { return [] }
            names.append(name)
        }
        return zip(rows, names).map { row, name in
            var copy = test
            copy.name = name
            copy.bindings = row.map { TestCase.Binding(name: $0.name, value: $0.value) }
            return copy
        }
    }

    /// One row: column names and values, in order.
    typealias Row = [(name: String, value: JSONValue)]

    /// An inline list of maps, or `{file: rows.csv}` / `{file: rows.json}`.
    private static func rows(_ node: YAMLNode, in context: SuiteParseContext) -> [Row]? {
        if let items = context.document.items(of: node) {
            var rows: [Row] = []
            for item in items {
                guard context.isMapping(item), let entries = context.mapping(item, for: "a forEach row") else {
                    context.error(
                        "each forEach row is a map of names to values, found \(context.kindName(of: item))", at: item)
                    return nil
                }
                var row: Row = []
                for entry in entries {
                    guard context.checkVariableName(entry.key, at: entry.keyNode, what: "forEach column") else {
                        return nil
                    }
                    guard let value = literalValue(entry.value, in: context) else { return nil }
                    row.append((entry.key, value))
                }
                rows.append(row)
            }
            return rows
        }
        guard context.isMapping(node), let entries = context.mapping(node, for: "forEach") else {
            context.error(
                "'forEach' takes a list of rows or {file: rows.csv}, found \(context.kindName(of: node))", at: node,
                note: "rows are maps: [{user: alice, role: admin}, {user: bob, role: user}]")
            return nil
        }
        context.checkKeys(entries, of: FileKey.self, in: "forEach")
        guard let fileEntry = entries[FileKey.file], let path = context.text(fileEntry.value, for: "file") else {
            if entries[FileKey.file] == nil { context.error("'forEach' needs 'file' or a list of rows", at: node) }
            return nil
        }
        guard let absolute = context.checkBodyFile(path, at: fileEntry.value, for: "file") else { return nil }
        let lower = path.lowercased()
        guard lower.hasSuffix(".csv") || lower.hasSuffix(".json") else {
            context.error("forEach file '\(path)' must be a .csv or a .json file", at: fileEntry.value)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: absolute) else {
            context.error("forEach file '\(path)' cannot be read", at: fileEntry.value)
            return nil
        }
        return lower.hasSuffix(".csv")
            ? csvRows(data, path: path, at: fileEntry.value, in: context)
            : jsonRows(data, path: path, at: fileEntry.value, in: context)
    }

    /// A scalar, list or map without placeholders, as a JSON value.
    private static func literalValue(_ node: YAMLNode, in context: SuiteParseContext) -> JSONValue? {
        let value = context.templateValue(node)
        guard value.templates.allSatisfy(\.isLiteral) else {
            context.error("forEach values are data: placeholders are not expanded in them", at: node)
            return nil
        }
        return try? value.render(TemplateContext())
    }

    /// The rows of a JSON file: an array of objects.
    private static func jsonRows(
        _ data: Data, path: String, at node: YAMLNode, in context: SuiteParseContext
    ) -> [Row]? {
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            context.error("forEach file '\(path)' is not valid JSON: \(JSONParseError.describing(error))", at: node)
            return nil
        }
        guard case .array(let items) = document else {
            context.error("forEach file '\(path)' must hold an array of objects", at: node)
            return nil
        }
        var rows: [Row] = []
        for (index, item) in items.enumerated() {
            guard case .object(let object) = item else {
                context.error("item \(index) of forEach file '\(path)' is not an object", at: node)
                return nil
            }
            for key in object.keys where !TemplateScanner.isValidName(key) {
                context.error(
                    "forEach file '\(path)': '\(key)' is not a valid name; names match [A-Za-z_][A-Za-z0-9_.-]*",
                    at: node)
                return nil
            }
            rows.append(object.members.map { ($0.key, $0.value) })
        }
        return rows
    }

    /// RFC 4180 CSV: a header row of names, then rows of text values; quoted fields may hold commas, quotes
    /// (doubled) and line breaks. Errors are located in the CSV file.
    private static func csvRows(
        _ data: Data, path: String, at node: YAMLNode, in context: SuiteParseContext
    ) -> [Row]? {
        guard let text = String(data: data, encoding: .utf8) else {
            context.error("forEach file '\(path)' is not UTF-8 text", at: node)
            return nil
        }
        let csvFile = IncludeParser.siblingPath(path, of: context.file)
        // Errors located in the CSV file show its lines.
        context.shared.includedSources[csvFile] = text
        let records: [(line: Int, fields: [String])]
        switch CSVReader.records(in: text) {
        case .success(let parsed): records = parsed
        case .failure(let problem):
            context.error(
                "forEach file '\(path)': \(problem.message)",
                at: SourceLocation(file: csvFile, line: problem.line, column: problem.column))
            return nil
        }
        guard let header = records.first else {
            context.error("forEach file '\(path)' is empty; its first line names the columns", at: node)
            return nil
        }
        for name in header.fields where !TemplateScanner.isValidName(name) {
            context.error(
                "forEach file '\(path)': column '\(name)' is not a valid name; names match [A-Za-z_][A-Za-z0-9_.-]*",
                at: SourceLocation(file: csvFile, line: header.line, column: 1))
            return nil
        }
        var rows: [Row] = []
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                context.error(
                    "forEach file '\(path)': expected \(header.fields.count) fields, found \(record.fields.count)",
                    at: SourceLocation(file: csvFile, line: record.line, column: 1))
                return nil
            }
            rows.append(zip(header.fields, record.fields).map { ($0, .string($1)) })
        }
        return rows
    }

    /// The name of a row's test: the test's name with its placeholders filled from the row
    /// (`create {{ user }}`), or the name followed by the row's values (`create user [alice, admin]`).
    private static func rowName(
        _ name: String, row: Row, at node: YAMLNode, in context: SuiteParseContext
    ) -> String? {
        let template = context.parseTemplate(name, at: node)
        guard !template.isLiteral else {
            let values = row.map { TemplateContext.text(of: $0.value) }.joined(separator: ", ")
            return "\(name) [\(values)]"
        }
        var values = TemplateContext()
        for (column, value) in row { values.set(column, value, secret: false) }
        do {
            return try template.render(values)
        } catch {
            context.error(
                "a forEach test name can use only its row's values: \(error.message)", at: node,
                note: "columns: " + row.map(\.name).joined(separator: ", "))
            return nil
        }
    }
}
