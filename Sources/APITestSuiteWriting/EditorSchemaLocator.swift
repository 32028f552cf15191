import APITestSupport
import Foundation

/// Finds the suite schema (`schemas/apitest.schema.json`) for the editor modeline of generated suites, as a path
/// relative to the folder they are written to, the way `examples/*.yaml` point at it
/// (`$schema=../schemas/apitest.schema.json`): a relative file path works offline and in every editor that runs the
/// YAML language server, where apitest's schema has no URL that resolves.
package enum EditorSchemaLocator {
    /// Where the schema sits in a checkout of apitest, or in a project that keeps a copy of it.
    package static let schemaPath = "schemas/apitest.schema.json"
    /// Where `make install` and the Debian package put it, under the prefix whose `bin/` holds apitest
    /// (`/usr/local/share/apitest/apitest.schema.json`, `/usr/share/apitest/apitest.schema.json`).
    package static let installedPath = "share/apitest/apitest.schema.json"

    /// The schema in `directory` or the nearest folder above it that has one (a project's own copy, or apitest's
    /// checkout), else near the apitest executable (`.build/debug/apitest` in a checkout, or an installed apitest's
    /// `PREFIX/share/apitest`); nil when there is none.
    package static func locate(from directory: String, executable: String?) -> String? {
        if let found = nearest(schemaPath, from: FilePaths.canonical(directory)) { return found }
        guard let executable else { return nil }
        let folder = FilePaths.directory(of: FilePaths.canonical(executable))
        return nearest(schemaPath, from: folder) ?? nearest(installedPath, from: folder)
    }

    /// `path` in `start` or the nearest folder above it that has a readable file there.
    private static func nearest(_ path: String, from start: String) -> String? {
        var folder = start
        while true {
            let candidate = folder == "/" ? "/" + path : folder + "/" + path
            if FileManager.default.isReadableFile(atPath: candidate) { return candidate }
            guard folder != "/" else { return nil }
            folder = FilePaths.directory(of: folder)
        }
    }
}
