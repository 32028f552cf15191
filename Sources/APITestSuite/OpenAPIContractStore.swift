import APITestOpenAPI
import APITestSupport
import APITestYAML
import Foundation
import Synchronization

/// The OpenAPI contracts of one load, each read and compiled once however many suites name it (suites load in
/// parallel: a document several suites name is loaded by the first, and the others wait for it).
package final class OpenAPIContractStore: Sendable {
    /// A document and the options it is loaded with: the same file with other options is another contract.
    private struct Key: Hashable {
        var path: String
        var options: OpenAPIContractOptions
    }

    /// What loading one document gave: the contract, or its problems with the texts of the files they are in.
    enum Outcome: Sendable {
        case loaded(OpenAPIContract)
        case failed([OpenAPILoadProblem], sources: [String: String])
    }

    /// Each document's load, done once.
    private let loads = LoadOnceCache<Key, Outcome>()
    /// The documents whose warnings have been handed to a suite (``warnings(of:for:)``), by absolute path.
    private let warned = Mutex<Set<String>>([])
    /// Whether every document's load warnings are errors (`--strict-spec`).
    package let strictSpec: Bool

    /// A store; with `strictSpec`, the documents' load warnings are errors.
    package init(strictSpec: Bool = false) {
        self.strictSpec = strictSpec
    }

    /// The contract of `setting`, loaded on first use.
    func contract(for setting: OpenAPISetting) -> Outcome {
        let options = OpenAPIContractOptions(
            server: setting.server, strict: setting.strict, ignore: setting.ignore, strictSpec: strictSpec)
        return loads.value(for: Key(path: setting.absolutePath, options: options)) { key in
            Self.load(key.path, options: key.options)
        }
    }

    /// Loads the document at `path`: the contract, or its problems with the texts of the files they are in.
    private static func load(_ path: String, options: OpenAPIContractOptions) -> Outcome {
        let reader = OpenAPIYAMLReader()
        do {
            return .loaded(try OpenAPIContract.load(path: path, options: options, reader: reader))
        } catch {
            return .failed(error.problems, sources: reader.sources)
        }
    }

    /// The problems of a document as diagnostics of a suite whose `openapi` is `setting`: at their places in the
    /// document, except an `ignore` entry that names nothing, which is the suite's (at its `openapi` key).
    static func diagnostics(_ problems: [OpenAPILoadProblem], for setting: OpenAPISetting) -> [Diagnostic] {
        OpenAPIDescriptionLoader.diagnostics(problems, named: setting.path, ignoreEntriesAt: setting.location)
    }

    /// The warnings of a loaded document (``OpenAPIContract/warnings``) as warnings of a suite whose `openapi` is
    /// `setting`, at their places in the document, summarized (``OpenAPIDescriptionLoader/warningDiagnostics``);
    /// only for the first suite that asks, so that a document several suites name prints them once.
    func warnings(of contract: OpenAPIContract, for setting: OpenAPISetting) -> [Diagnostic] {
        guard !contract.warnings.isEmpty, warned.withLock({ $0.insert(setting.absolutePath).inserted }) else {
            return []
        }
        return OpenAPIDescriptionLoader.warningDiagnostics(
            contract.warnings, named: setting.path, rootPath: setting.absolutePath)
    }
}
