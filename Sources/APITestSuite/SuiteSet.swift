import APITestSupport
import Foundation
import Synchronization

/// The suites of one command line: the files it names and the suite files found in the folders it names, each
/// loaded, with the shared fragments (files that other files include) set aside.
///
/// A file found in a folder is a shared fragment, not a suite, when another file includes it, it declares no
/// `tests`, and it is not on an include cycle. A cycle is an error wherever it is found. So a folder never runs
/// green with nothing in it: among the files that no other file includes, or that are on a cycle, each is a suite
/// with at least one test (`tests: []` is an error) or a failure. A file named on the command line is always a
/// suite.
package struct SuiteSet: Sendable {
    /// A file that failed to load, with everything wrong with it.
    package struct Failure: Sendable {
        /// The file as found or named.
        package var file: String
        /// Its diagnostics.
        package var error: SuiteLoadError
    }

    /// The loaded suites, in discovery order.
    package var suites: [Suite] = []
    /// The files that failed to load, in discovery order (fragments excluded).
    package var failures: [Failure] = []
    /// The files set aside as shared fragments, in discovery order.
    package var fragments: [String] = []
    /// The symbolic links in the folders searched that lead nowhere (broken, or a loop), skipped.
    package var discoveryWarnings: [SuiteDiscovery.Warning] = []

    /// The number of error diagnostics over all failures.
    package var errorCount: Int {
        failures.reduce(0) { $0 + $1.error.diagnostics.filter { $0.severity == .error }.count }
    }

    // MARK: - Loading

    /// Finds and loads the suites of `paths` with `loader`, several files at once on a machine with several cores.
    /// Throws when a path names nothing usable.
    package static func load(paths: [String], loader: SuiteLoader) throws(SuiteDiscovery.DiscoveryError) -> SuiteSet {
        let discovery = try SuiteDiscovery.discover(paths)
        let files = discovery.files
        let results = loadAll(files, with: loader)
        var loaded: [(file: String, result: Result<Suite, SuiteLoadError>)] = []
        var included: [String: Set<String>] = [:]
        var onCycles: Set<String> = []
        for (file, result) in zip(files, results) {
            let path = FilePaths.canonical(file)
            switch result {
            case .success(let suite):
                included[path] = suite.includedFiles
            case .failure(let error):
                included[path] = error.includedFiles
                onCycles.formUnion(error.includeCycleFiles)
            }
            loaded.append((file, result))
        }
        // Included by another file: a file's own include of itself does not count (that is a cycle).
        var includedByOthers: Set<String> = []
        for (includer, files) in included { includedByOthers.formUnion(files.subtracting([includer])) }
        let named = Set(paths.map { FilePaths.canonical($0) })

        var set = SuiteSet()
        set.discoveryWarnings = discovery.warnings
        for (file, result) in loaded {
            let path = FilePaths.canonical(file)
            let declaresTests: Bool
            switch result {
            case .success: declaresTests = true
            case .failure(let error): declaresTests = error.declaresTests
            }
            let isFragment =
                includedByOthers.contains(path) && !named.contains(path) && !onCycles.contains(path) && !declaresTests
            if isFragment {
                set.fragments.append(file)
                continue
            }
            switch result {
            case .success(let suite):
                set.suites.append(suite)
            case .failure(let error):
                set.failures.append(Failure(file: file, error: error))
            }
        }
        return set
    }

    /// The result of loading each of `files`, in their order. Files are independent (each reads its own includes),
    /// so they load in parallel, one at a time per core; the results do not depend on the order they finish in.
    private static func loadAll(_ files: [String], with loader: SuiteLoader) -> [Result<Suite, SuiteLoadError>] {
        let load = { @Sendable (file: String) -> Result<Suite, SuiteLoadError> in
            do throws(SuiteLoadError) {
                return .success(try loader.load(path: file))
            } catch {
                return .failure(error)
            }
        }
        guard files.count > 1 else { return files.map(load) }
        let results = Mutex([Result<Suite, SuiteLoadError>?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let result = load(files[index])
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0.map { $0! } }
    }
}
