import Foundation

/// The text of a coverage file (`--report-openapi-coverage`, `--report-grpc-coverage`): one JSON document, pretty
/// printed with sorted keys and unescaped slashes, and a final newline.
enum CoverageFileText {
    /// The text of `document`.
    static func render(_ document: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
        } catch {
            // Only non-finite numbers fail to encode, and the documents hold only counts and text.
            return "{\"version\": 1, \"error\": \"the coverage could not be encoded\"}\n"
        }
    }
}
