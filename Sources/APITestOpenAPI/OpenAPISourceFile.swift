package import APITestJSON
package import APITestSupport

/// One file of an OpenAPI document as the reader read it: its value and where each part of it starts.
package struct OpenAPISourceFile: Sendable {
    /// The file's content (a YAML or JSON document as a JSON value).
    package var value: JSONValue
    /// Where the value at a JSON pointer (reference tokens, unescaped) starts in the file; the file's start when
    /// unknown.
    package var locate: @Sendable ([String]) -> SourceLocation

    /// Creates a file from its value and its locator.
    package init(value: JSONValue, locate: @escaping @Sendable ([String]) -> SourceLocation) {
        self.value = value
        self.locate = locate
    }
}

/// Reads the files of an OpenAPI document: the root and every file a relative `$ref` names.
///
/// Paths are absolute, never URLs: the contract never fetches anything. The suite layer implements it (it owns
/// YAML); tests read JSON and YAML their own way.
package protocol OpenAPIFileReader: Sendable {
    /// The file at `absolutePath`, parsed.
    func read(_ absolutePath: String) throws(OpenAPIReadError) -> OpenAPISourceFile
}
