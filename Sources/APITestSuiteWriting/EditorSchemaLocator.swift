import APITestSupport
import Foundation

/// Finds the suite schema (`schemas/apitest.schema.json`) for the editor modeline of generated suites, as a path
/// relative to the folder they are written to, the way `examples/*.yaml` point at it
/// (`$schema=../schemas/apitest.schema.json`): a relative file path works offline and in every editor that runs the
/// YAML language server, where apitest's schema has no URL that resolves.
package enum EditorSchemaLocator {
    /// Where the schema sits in a checkout of apitest, or in a project that keeps a copy of it.
    package static let schemaPath = "schemas/apitest.schema.json"

    /// The schema in `directory` or the nearest folder above it that has one (a project's own copy, or apitest's
    /// checkout), else near the apitest executable (`.build/debug/apitest` in a checkout); nil when there is none.
    package static func locate(from directory: String, executable: String?) -> String? {
        var starts = [FilePaths.canonical(directory)]
        if let executable { starts.append(FilePaths.directory(of: FilePaths.canonical(executable))) }
        for start in starts {
            var folder = start
            while true {
                let candidate = folder == "/" ? "/" + schemaPath : folder + "/" + schemaPath
                if FileManager.default.isReadableFile(atPath: candidate) { return candidate }
                guard folder != "/" else { break }
                folder = FilePaths.directory(of: folder)
            }
        }
        return nil
    }
}
