import Foundation

/// Reads RFC 4180 CSV into records with their line numbers.
enum CSVReader {
    /// A syntax error, located in the CSV file.
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
