import APITestSupport
import Foundation

/// `include`: settings shared between suites (variables, base URL, defaults, setup, teardown) and steps shared
/// between tests, read from other files relative to the including one.
extension SuiteParser {
    static let includedFileKeys = ["include", "baseURL", "variables", "defaults", "security", "setup", "teardown"]

    /// What a suite takes from the files it includes, then from itself.
    struct SharedSettings {
        var variables: [Suite.Variable] = []
        var baseURL: Template?
        var defaults: RequestDefaults?
        /// Whether `defaults` sets `followRedirects` (its default, true, must not replace an included false).
        var setsFollowRedirects = false
        var security: SecuritySpec?
        var setup: [Step] = []
        var teardown: [Step] = []

        /// Adds later settings: variables of the same name and set values replace earlier ones; default headers
        /// merge by name; setup steps run after earlier ones and teardown steps before them.
        mutating func add(_ later: SharedSettings) {
            // A variable given again takes the place of the first, so the variables after it (which may use it)
            // still come after it; new ones follow.
            var indexByName: [String: Int] = [:]
            for (index, variable) in variables.enumerated() { indexByName[variable.name] = index }
            for variable in later.variables {
                if let index = indexByName[variable.name] {
                    variables[index] = variable
                } else {
                    indexByName[variable.name] = variables.count
                    variables.append(variable)
                }
            }
            baseURL = later.baseURL ?? baseURL
            if let next = later.defaults {
                var merged = defaults ?? RequestDefaults()
                let names = Set(next.headers.map { $0.name.lowercased() })
                merged.headers = merged.headers.filter { !names.contains($0.name.lowercased()) } + next.headers
                merged.timeout = next.timeout ?? merged.timeout
                merged.maxRedirects = next.maxRedirects ?? merged.maxRedirects
                merged.retry = next.retry ?? merged.retry
                merged.maxResponseSize = next.maxResponseSize ?? merged.maxResponseSize
                if later.setsFollowRedirects { merged.followRedirects = next.followRedirects }
                defaults = merged
                setsFollowRedirects = setsFollowRedirects || later.setsFollowRedirects
            }
            security = later.security ?? security
            setup += later.setup
            teardown = later.teardown + teardown
        }
    }

    // MARK: - Paths

    /// The paths of an `include` value (a path or a list of paths), with their nodes.
    func includePaths(_ node: YAMLNode) -> [(String, YAMLNode)] {
        let items: [YAMLNode] = document.items(of: node).map(Array.init) ?? [node]
        return items.compactMap { item in text(item, for: "include").map { ($0, item) } }
    }

    // MARK: - Included files

    /// The settings of an included file (a map of `variables`, `baseURL`, `defaults`, `setup`, `teardown` and
    /// its own `include`); `nil` for a settings file the suite already includes (twice, or through two files), which
    /// counts once, where it is first included.
    func includeSettings(_ path: String, at node: YAMLNode) -> SharedSettings? {
        let canonical = FilePaths.canonical(path, relativeTo: directory)
        guard !context.settingsFiles.contains(canonical) || includeChain.contains(canonical) else { return nil }
        context.settingsFiles.insert(canonical)
        guard let child = includedParser(path, at: node) else { return nil }
        guard let root = child.root else { return nil }
        guard child.isMapping(root), let entries = child.mapping(root, for: "an included file") else {
            child.error(
                "an included settings file is a map of \(Self.includedFileKeys.joined(separator: ", ")), found "
                    + child.kindName(of: root), at: root)
            return nil
        }
        child.checkKeys(entries, allowed: Self.includedFileKeys, in: "an included file")
        var settings = SharedSettings()
        if let include = entries[key: "include"] {
            for (nested, nestedNode) in child.includePaths(include.value) {
                if let nestedSettings = child.includeSettings(nested, at: nestedNode) { settings.add(nestedSettings) }
            }
        }
        var own = SharedSettings()
        own.variables = entries[key: "variables"].map { child.parseVariables($0.value) } ?? []
        own.baseURL = entries[key: "baseURL"].flatMap { child.template($0.value, for: "baseURL") }
        if let entry = entries[key: "defaults"] {
            own.defaults = child.parseDefaults(entry.value)
            own.setsFollowRedirects = child.plainValue(forKey: "followRedirects", in: entry.value) != nil
        }
        own.security = entries[key: "security"].flatMap { child.parseSecurity($0) }
        // Relative URLs in shared steps resolve against the suite's base URL, known only in the suite: check them
        // as if there were one.
        own.setup = entries[key: "setup"].map { child.parseSteps($0.value, owner: "setup", hasBaseURL: true) } ?? []
        own.teardown =
            entries[key: "teardown"].map { child.parseSteps($0.value, owner: "teardown", hasBaseURL: true) } ?? []
        settings.add(own)
        return settings
    }

    /// The steps of an included steps file: a list of steps, or a map with `steps`.
    func includeSteps(_ path: String, at node: YAMLNode, owner: String, hasBaseURL: Bool) -> [Step] {
        guard let child = includedParser(path, at: node) else { return [] }
        guard let root = child.root else { return [] }
        if child.isMapping(root), let entries = child.mapping(root, for: "an included steps file") {
            child.checkKeys(entries, allowed: ["steps"], in: "an included steps file")
            guard let steps = entries[key: "steps"] else {
                child.error("an included steps file needs 'steps' (or is a list of steps)", at: root)
                return []
            }
            return child.parseSteps(steps.value, owner: owner, hasBaseURL: hasBaseURL)
        }
        return child.parseSteps(root, owner: owner, hasBaseURL: hasBaseURL)
    }

    /// A parser for the included file `path` (relative to this file's directory), or `nil` after reporting a
    /// missing file, an include cycle or a YAML error.
    private func includedParser(_ path: String, at node: YAMLNode) -> SuiteParser? {
        guard let absolute = checkBodyFile(path, at: node, for: "include") else { return nil }
        let canonical = FilePaths.canonical(absolute)
        context.includedFiles.insert(canonical)
        let chain = includeChain.isEmpty ? [FilePaths.canonical(file)] : includeChain
        if let start = chain.firstIndex(of: canonical) {
            context.includeCycleFiles.formUnion(chain[start...])
            let names = (chain + [canonical]).map { ($0 as NSString).lastPathComponent }
            error("include cycle: " + names.joined(separator: " → "), at: node)
            return nil
        }
        guard chain.count < 32 else {
            error("includes are nested more than 32 deep", at: node)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: absolute),
            let source = String(data: data, encoding: .utf8)
        else {
            error("include '\(path)' is not readable UTF-8 text", at: node)
            return nil
        }
        // Locations in the included file read as it is named from the current directory, like the suite's.
        let childFile = Self.siblingPath(path, of: file)
        let composed: (document: YAMLDocument, root: YAMLNode?)
        do {
            composed = try YAMLComposer.compose(source)
        } catch {
            context.report(YAMLErrorDiagnostic.make(error, text: SourceText(file: childFile, text: source)))
            context.includedSources[childFile] = source
            return nil
        }
        let child = SuiteParser(
            file: childFile, directory: (absolute as NSString).deletingLastPathComponent,
            document: composed.document, source: source, context: context, includeChain: chain + [canonical])
        child.root = composed.root
        context.includedSources[childFile] = source
        if composed.root == nil {
            child.error("the included file is empty", at: SourceLocation(file: childFile, line: 1, column: 1))
        }
        return child
    }

    /// `path` (relative to the directory of `file`) as it reads from where `file` is named: `a/suite.yaml` and
    /// `../shared/x.yaml` give `shared/x.yaml`.
    static func siblingPath(_ path: String, of file: String) -> String {
        if path.hasPrefix("/") { return path }
        let directory = (file as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return path }
        var parts = directory.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in path.split(separator: "/").map(String.init) {
            if part == "..", let last = parts.last, last != "..", !last.isEmpty, last != "." {
                parts.removeLast()
            } else if part != "." {
                parts.append(part)
            }
        }
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
