/// A problem of an imported JSON file (a Postman collection, environment or globals file, a HAR archive): where it is
/// and what is wrong. Syntax errors carry the parser's line and column; structural ones the JSON path of the value
/// (`item[2].request.url`), which is how the file's own tools name places.
package struct JSONSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    package var file: String
    /// The place in the file: `line 3, column 7` or a JSON path such as `log.entries[4].request`.
    package var location: String
    /// What is wrong.
    package var message: String

    /// A problem at `location` of `file`.
    package init(file: String, location: String, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// `file: location: message`.
    package var description: String {
        location.isEmpty ? "\(file): \(message)" : "\(file): \(location): \(message)"
    }
}
