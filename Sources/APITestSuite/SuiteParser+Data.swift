import APITestJSON
import APITestSupport
import Foundation

/// Data-driven tests (`forEach`) and retries.
extension SuiteParser {
    static let retryKeys = ["attempts", "interval", "until"]

    // MARK: - Retry

    /// `retry: {attempts: 10, interval: 500ms, until: {json: {$.state: done}}}`.
    func parseRetry(_ node: YAMLNode) -> RetrySpec? {
        guard let entries = mapping(node, for: "retry") else { return nil }
        checkKeys(entries, allowed: Self.retryKeys, in: "retry")
        guard let attemptsEntry = entries[key: "attempts"] else {
            error("'retry' needs 'attempts' (the number of tries, the first included)", at: node)
            return nil
        }
        guard let attempts = integer(attemptsEntry.value, for: "attempts", in: 1...10_000) else { return nil }
        var retry = RetrySpec(attempts: attempts, location: location(of: node))
        if let interval = entries[key: "interval"] {
            guard let parsed = duration(interval.value, for: "interval") else { return nil }
            retry.interval = parsed
        }
        if let until = entries[key: "until"] {
            let expectations = parseExpect(until.value)
            if expectations.status == nil, expectations.assertions.isEmpty, expectations.schema == nil {
                error("'until' is empty; give the checks that end the polling", at: until.value)
                return nil
            }
            retry.until = expectations
        }
        return retry
    }

    // MARK: - forEach

    /// The tests a test with `forEach` stands for, one per row, each named from its values; the test itself when
    /// it has no `forEach`.
    func expandForEach(_ test: TestCase, _ node: YAMLNode) -> [TestCase] {
        guard let forEach = plainValue(forKey: "forEach", in: node) else { return [test] }
        guard let rows = parseRows(forEach), !rows.isEmpty else {
            if !hasErrors { error("'forEach' has no rows", at: forEach) }
            return []
        }
        let nameNode = plainValue(forKey: "name", in: node) ?? node
        var names: [String] = []
        for row in rows {
            guard let name = rowName(test.name, row: row, at: nameNode) else { return [] }
            names.append(name)
        }
        return zip(rows, names).map { row, name in
            var copy = test
            copy.name = name
            copy.bindings = row.map { TestCase.Binding(name: $0.name, value: $0.value) }
            return copy
        }
    }

    /// The value of a plain scalar key of a map, without reporting anything (the map was checked already).
    func plainValue(forKey key: String, in map: YAMLNode) -> YAMLNode? {
        document.pairs(of: map)?.first { scalar($0.key)?.string == key }?.value
    }

    /// One row: column names and values, in order.
    typealias Row = [(name: String, value: JSONValue)]

    /// An inline list of maps, or `{file: rows.csv}` / `{file: rows.json}`.
    private func parseRows(_ node: YAMLNode) -> [Row]? {
        if let items = document.items(of: node) {
            var rows: [Row] = []
            for item in items {
                guard isMapping(item), let entries = mapping(item, for: "a forEach row") else {
                    error("each forEach row is a map of names to values, found \(kindName(of: item))", at: item)
                    return nil
                }
                var row: Row = []
                for entry in entries {
                    guard checkVariableName(entry.key, at: entry.keyNode, what: "forEach column") else { return nil }
                    guard let value = literalValue(entry.value) else { return nil }
                    row.append((entry.key, value))
                }
                rows.append(row)
            }
            return rows
        }
        guard isMapping(node), let entries = mapping(node, for: "forEach") else {
            error(
                "'forEach' takes a list of rows or {file: rows.csv}, found \(kindName(of: node))", at: node,
                note: "rows are maps: [{user: alice, role: admin}, {user: bob, role: user}]")
            return nil
        }
        checkKeys(entries, allowed: ["file"], in: "forEach")
        guard let fileEntry = entries[key: "file"], let path = text(fileEntry.value, for: "file") else {
            if entries[key: "file"] == nil { error("'forEach' needs 'file' or a list of rows", at: node) }
            return nil
        }
        guard let absolute = checkBodyFile(path, at: fileEntry.value, for: "file") else { return nil }
        let lower = path.lowercased()
        guard lower.hasSuffix(".csv") || lower.hasSuffix(".json") else {
            error("forEach file '\(path)' must be a .csv or a .json file", at: fileEntry.value)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: absolute) else {
            error("forEach file '\(path)' cannot be read", at: fileEntry.value)
            return nil
        }
        return lower.hasSuffix(".csv")
            ? csvRows(data, path: path, at: fileEntry.value) : jsonRows(data, path: path, at: fileEntry.value)
    }

    /// A scalar, list or map without placeholders, as a JSON value.
    private func literalValue(_ node: YAMLNode) -> JSONValue? {
        let value = templateValue(node)
        guard value.templates.allSatisfy(\.isLiteral) else {
            error("forEach values are data: placeholders are not expanded in them", at: node)
            return nil
        }
        return try? value.render(TemplateContext())
    }

    private func jsonRows(_ data: Data, path: String, at node: YAMLNode) -> [Row]? {
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            self.error("forEach file '\(path)' is not valid JSON: \(error)", at: node)
            return nil
        }
        guard case .array(let items) = document else {
            error("forEach file '\(path)' must hold an array of objects", at: node)
            return nil
        }
        var rows: [Row] = []
        for (index, item) in items.enumerated() {
            guard case .object(let object) = item else {
                error("item \(index) of forEach file '\(path)' is not an object", at: node)
                return nil
            }
            for key in object.keys where !TemplateScanner.isValidName(key) {
                error(
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
    private func csvRows(_ data: Data, path: String, at node: YAMLNode) -> [Row]? {
        guard let text = String(data: data, encoding: .utf8) else {
            error("forEach file '\(path)' is not UTF-8 text", at: node)
            return nil
        }
        let csvFile = Self.siblingPath(path, of: file)
        // Errors located in the CSV file show its lines.
        context.includedSources[csvFile] = text
        let records: [(line: Int, fields: [String])]
        switch CSVReader.records(in: text) {
        case .success(let parsed): records = parsed
        case .failure(let problem):
            error(
                "forEach file '\(path)': \(problem.message)",
                at: SourceLocation(file: csvFile, line: problem.line, column: problem.column))
            return nil
        }
        guard let header = records.first else {
            error("forEach file '\(path)' is empty; its first line names the columns", at: node)
            return nil
        }
        for name in header.fields where !TemplateScanner.isValidName(name) {
            error(
                "forEach file '\(path)': column '\(name)' is not a valid name; names match [A-Za-z_][A-Za-z0-9_.-]*",
                at: SourceLocation(file: csvFile, line: header.line, column: 1))
            return nil
        }
        var rows: [Row] = []
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                error(
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
    private func rowName(_ name: String, row: Row, at node: YAMLNode) -> String? {
        let template = parseTemplate(name, at: node)
        guard !template.isLiteral else {
            let values = row.map { TemplateContext.text(of: $0.value) }.joined(separator: ", ")
            return "\(name) [\(values)]"
        }
        var context = TemplateContext()
        for (column, value) in row { context.set(column, value, secret: false) }
        do {
            return try template.render(context)
        } catch {
            self.error(
                "a forEach test name can use only its row's values: \(error.message)", at: node,
                note: "columns: " + row.map(\.name).joined(separator: ", "))
            return nil
        }
    }
}

/// Reads RFC 4180 CSV into records with their line numbers.
enum CSVReader {
    struct Problem: Error {
        var message: String
        var line: Int
        var column: Int
    }

    /// The records of `text`; blank lines are skipped.
    static func records(in text: String) -> Result<[(line: Int, fields: [String])], Problem> {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var line = 1
        var column = 0
        var recordLine = 1
        var fieldStarted = false
        var quoteStart = (line: 1, column: 1)
        var characters = Array(text)
        if characters.first == "\u{FEFF}" { characters.removeFirst() }
        var index = 0
        func endRecord() {
            if fieldStarted || !fields.isEmpty || !field.isEmpty {
                fields.append(field)
                records.append((recordLine, fields))
            }
            fields = []
            field = ""
            fieldStarted = false
        }
        while index < characters.count {
            let character = characters[index]
            column += 1
            if inQuotes {
                if character == "\"" {
                    if index + 1 < characters.count, characters[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if character == "\n" || character == "\r\n" {
                        line += 1
                        column = 0
                    }
                    field.append(character)
                }
            } else {
                switch character {
                case "\"":
                    guard field.isEmpty else {
                        return .failure(
                            Problem(message: "a quote inside an unquoted field", line: line, column: column))
                    }
                    inQuotes = true
                    quoteStart = (line, column)
                    fieldStarted = true
                case ",":
                    fields.append(field)
                    field = ""
                    fieldStarted = true
                case "\n", "\r\n", "\r":
                    endRecord()
                    line += 1
                    column = 0
                    recordLine = line
                default:
                    if fields.isEmpty, field.isEmpty { recordLine = line }
                    field.append(character)
                    fieldStarted = true
                }
            }
            index += 1
        }
        if inQuotes {
            // Point at the quote that opens the field: the end of the file is past any line.
            return .failure(
                Problem(message: "a quoted field is not closed", line: quoteStart.line, column: quoteStart.column))
        }
        endRecord()
        return .success(records)
    }
}
