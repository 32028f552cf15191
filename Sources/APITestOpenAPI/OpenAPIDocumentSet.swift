import APITestJSON
import APITestJSONSchema
import APITestSupport

/// The files of one OpenAPI document, read through the reader on first use and kept: the root and every file a
/// `$ref` names.
final class OpenAPIDocumentSet {
    /// The reader files come through.
    let reader: any OpenAPIFileReader
    /// The root file's absolute path.
    let rootPath: String
    /// Files read, by absolute path.
    private(set) var files: [String: OpenAPISourceFile] = [:]
    /// Paths in the order they were read.
    private(set) var readOrder: [String] = []
    /// Files that could not be read, by absolute path.
    private(set) var failures: [String: OpenAPIReadError] = [:]

    /// A set whose root is at `rootPath`, read through `reader`.
    init(reader: any OpenAPIFileReader, rootPath: String) {
        self.reader = reader
        self.rootPath = rootPath
    }

    /// The file at `path`, read now unless read before; nil when it cannot be read (see ``failures``).
    func file(at path: String) -> OpenAPISourceFile? {
        if let file = files[path] { return file }
        if failures[path] != nil { return nil }
        do {
            let file = try reader.read(path)
            files[path] = file
            readOrder.append(path)
            return file
        } catch {
            failures[path] = error
            return nil
        }
    }

    /// The value at `location`; nil when its file cannot be read or the pointer leads nowhere.
    func value(at location: SpecLocation) -> JSONValue? {
        guard let file = file(at: location.path) else { return nil }
        return JSONPointer.value(in: file.value, at: location.pointer)
    }

    /// The node at `location`.
    func node(at location: SpecLocation) -> SpecNode? {
        value(at: location).map { SpecNode(value: $0, location: location) }
    }

    /// Where `location` is in its file; the file's start when the file was not read.
    func sourceLocation(_ location: SpecLocation) -> SourceLocation {
        if let file = files[location.path] { return file.locate(location.pointer) }
        return SourceLocation(file: location.path, line: 1, column: 1)
    }
}
