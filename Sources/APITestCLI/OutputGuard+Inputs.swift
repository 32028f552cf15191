import APITestSuite
import APITestSupport

/// The inputs of the commands that load suites (`run`, `load`, `list`, `validate`, `export curl`), from their
/// option groups and the suites they loaded.
extension OutputGuard {
    /// Adds the suite files of `suites`, every file each one read (includes, `bodyFile`, `schema`, `forEach`,
    /// `openapi`, certificates, ...), and the files `options` names (`--variables-file`, `--openapi`).
    mutating func add(_ suites: [Suite], options: SuiteOptions) {
        for suite in suites {
            add(suite.file, as: .suite)
            var read = suite.includedFiles
            if let openapi = suite.openapi { read.insert(openapi.absolutePath) }
            for path in read.sorted() { add(FilePaths.display(path), as: .readBySuite(suite.file)) }
        }
        for path in options.variablesFiles { add(path, as: .flag("--variables-file")) }
        if let openapi = options.openapi { add(openapi, as: .flag("--openapi")) }
        addCheckedFiles()
    }

    /// Adds every file found readable so far (``ReadableFile/checkedFiles()``): what the suites named and the load
    /// read (`bodyFile`, `schema`, `forEach`, multipart files, certificates, an OpenAPI document's `$ref` files),
    /// besides the inputs added with a more precise role.
    mutating func addCheckedFiles() {
        for path in ReadableFile.checkedFiles() { add(FilePaths.display(path), as: .readBySuites) }
    }

    /// Adds the certificate files of the TLS flags (`--certificate`, `--ca-file`, `--client-cert`, `--client-key`).
    mutating func add(_ security: SecurityFlags) {
        for path in security.certificates { add(path, as: .flag("--certificate")) }
        if let path = security.caFile { add(path, as: .flag("--ca-file")) }
        if let path = security.clientCertificate { add(path, as: .flag("--client-cert")) }
        if let path = security.clientKey { add(path, as: .flag("--client-key")) }
    }

    /// Adds the `--shard-timings` and `--last-failed` reports of `selection`.
    mutating func add(_ selection: SelectionOptions) {
        if let path = selection.shardTimings { add(path, as: .flag("--shard-timings")) }
        if let path = selection.lastFailed { add(path, as: .flag("--last-failed")) }
    }
}
