package import APITestJSON
package import Foundation

/// Resolves schema URIs to JSON files in a local folder.
///
/// A URI starting with ``baseURI`` maps to the same relative path under ``directory``
/// (`http://localhost:1234/nested/a.json` → `<directory>/nested/a.json`). `file:` URIs of files inside
/// ``directory`` resolve too, so schemas loaded from disk can reference their neighbours with relative refs.
/// Paths that leave the folder (`..`) are refused.
package struct DirectoryJSONSchemaResolver: JSONSchemaResolver {
    /// The URI prefix served, e.g. `http://localhost:1234/`; `nil` serves only `file:` URIs.
    package var baseURI: String?
    /// The local folder.
    package var directory: URL

    /// Serves `file:` URIs of files inside `directory`.
    package init(directory: URL) {
        self.baseURI = nil
        self.directory = directory.standardizedFileURL
    }

    /// Serves URIs starting with `baseURI` from `directory` (and `file:` URIs inside it).
    package init(baseURI: String, directory: URL) {
        self.baseURI = baseURI.hasSuffix("/") ? baseURI : baseURI + "/"
        self.directory = directory.standardizedFileURL
    }

    /// Reads and parses the file for `uri`; `nil` when the URI is not served or the file does not exist.
    package func resolve(_ uri: String) throws -> JSONValue? {
        guard let file = fileURL(for: uri) else { return nil }
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let data = try Data(contentsOf: file)
        return try JSONParser.parse(data)
    }

    /// The local file for `uri`, or `nil` when the URI is outside what this resolver serves.
    func fileURL(for uri: String) -> URL? {
        var relative: String?
        if let baseURI, uri.hasPrefix(baseURI) {
            var path = Substring(uri.dropFirst(baseURI.count))
            if let query = path.firstIndex(of: "?") { path = path[..<query] }
            relative = path.removingPercentEncoding
        } else if uri.hasPrefix("file:"), let url = URL(string: uri), url.isFileURL {
            let path = url.standardizedFileURL.path
            let root = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
            if path.hasPrefix(root) { relative = String(path.dropFirst(root.count)) }
        }
        guard let relative else { return nil }
        let components = relative.split(separator: "/")
        guard !relative.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        return directory.appendingPathComponent(relative)
    }
}
