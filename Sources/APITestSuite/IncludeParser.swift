import APITestSupport
import APITestYAML
import Foundation

/// `include`: settings shared between suites (variables, base URL, defaults, setup, teardown) and steps shared
/// between tests, read from other files relative to the including one.
///
/// An included file is composed and parsed in a context of its own, one level up the include stack, that shares the
/// including context's diagnostics and caches (`SuiteParseContext.including`).
enum IncludeParser {
    /// The keys of an included settings file: the suite's keys that are settings.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case include, baseURL, variables, defaults, security, openapi, setup, teardown

        /// The suite's key of the same name.
        var suiteKey: SuiteParser.Key {
            switch self {
            case .include: .include
            case .baseURL: .baseURL
            case .variables: .variables
            case .defaults: .defaults
            case .security: .security
            case .openapi: .openapi
            case .setup: .setup
            case .teardown: .teardown
            }
        }

        var schema: SchemaValue { suiteKey.schema }
    }

    /// The key of an included steps file written as a map.
    enum StepsKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case steps

        var schema: SchemaValue { .ref("steps") }
    }

    /// The keys of an included settings file, as written.
    static let keys = Key.names

    // MARK: - Paths

    /// The paths of an `include` value (a path or a list of paths), with their nodes.
    static func paths(_ node: YAMLNode, in context: SuiteParseContext) -> [(String, YAMLNode)] {
        let items: [YAMLNode] = context.document.items(of: node).map(Array.init) ?? [node]
        return items.compactMap { item in context.text(item, for: "include").map { ($0, item) } }
    }

    // MARK: - Settings files

    /// The settings of an included file (a map of `variables`, `baseURL`, `defaults`, `setup`, `teardown` and
    /// its own `include`); `nil` for a settings file the suite already includes (twice, or through two files), which
    /// counts once, where it is first included.
    static func settings(_ path: String, at node: YAMLNode, in context: SuiteParseContext) -> SharedSettings? {
        let canonical = FilePaths.canonical(path, relativeTo: context.directory)
        guard !context.shared.settingsFiles.contains(canonical) || context.includeChain.contains(canonical) else {
            return nil
        }
        context.shared.settingsFiles.insert(canonical)
        guard let included = open(path, at: node, in: context), let root = included.root else { return nil }
        return settings(ofRoot: root, in: included)
    }

    /// The settings an included file's root holds.
    private static func settings(ofRoot root: YAMLNode, in context: SuiteParseContext) -> SharedSettings? {
        guard context.isMapping(root), let entries = context.mapping(root, for: "an included file") else {
            context.error(
                "an included settings file is a map of \(keys.joined(separator: ", ")), found "
                    + context.kindName(of: root), at: root)
            return nil
        }
        context.checkKeys(entries, of: Key.self, in: "an included file")
        var settings = SharedSettings()
        if let include = entries[Key.include] {
            for (nested, nestedNode) in paths(include.value, in: context) {
                if let nestedSettings = self.settings(nested, at: nestedNode, in: context) {
                    settings.add(nestedSettings)
                }
            }
        }
        var own = SharedSettings()
        own.variables = entries[Key.variables].map { SettingsParser.variables($0.value, in: context) } ?? []
        own.baseURL = entries[Key.baseURL].flatMap { context.template($0.value, for: "baseURL") }
        if let entry = entries[Key.defaults] {
            own.defaults = SettingsParser.defaults(entry.value, in: context)
            own.setsFollowRedirects =
                context.plainValue(forKey: SettingsParser.DefaultsKey.followRedirects.rawValue, in: entry.value) != nil
        }
        own.security = entries[Key.security].flatMap { SecurityParser.parse($0, in: context) }
        own.openapi = entries[Key.openapi].flatMap { OpenAPISettingParser.parse($0, in: context) }
        // Relative URLs in shared steps resolve against the suite's base URL, known only once the suite is parsed:
        // their check waits for it (`ScopeChecker`).
        own.setup =
            entries[Key.setup].map {
                StepParser.steps($0.value, owner: "setup", hasBaseURL: false, in: context)
            } ?? []
        own.teardown =
            entries[Key.teardown].map {
                StepParser.steps($0.value, owner: "teardown", hasBaseURL: false, in: context)
            } ?? []
        settings.add(own)
        return settings
    }

    // MARK: - Steps files

    /// The steps of an included steps file: a list of steps, or a map with `steps`.
    static func steps(
        _ path: String, at node: YAMLNode, owner: String, hasBaseURL: Bool, in context: SuiteParseContext
    ) -> [Step] {
        guard let included = open(path, at: node, in: context), let root = included.root else { return [] }
        if included.isMapping(root), let entries = included.mapping(root, for: "an included steps file") {
            included.checkKeys(entries, of: StepsKey.self, in: "an included steps file")
            guard let steps = entries[StepsKey.steps] else {
                included.error("an included steps file needs 'steps' (or is a list of steps)", at: root)
                return []
            }
            return StepParser.steps(steps.value, owner: owner, hasBaseURL: hasBaseURL, in: included)
        }
        return StepParser.steps(root, owner: owner, hasBaseURL: hasBaseURL, in: included)
    }

    // MARK: - Opening

    /// The context of the included file `path` (relative to the directory of the file being parsed), composed;
    /// `nil` after reporting a missing file, an include cycle or a YAML error.
    private static func open(
        _ path: String, at node: YAMLNode, in context: SuiteParseContext
    ) -> SuiteParseContext? {
        // A file included many times (from the same folder) is looked up once: the checks and the path's
        // resolution are system calls.
        let key = context.directory + "\u{0}" + path
        let absolute: String
        let canonical: String
        if let target = context.shared.includeTargets[key] {
            (absolute, canonical) = target
        } else {
            guard let checked = context.checkBodyFile(path, at: node, for: "include") else { return nil }
            (absolute, canonical) = (checked, FilePaths.canonical(checked))
            context.shared.includeTargets[key] = (absolute, canonical)
        }
        context.shared.includedFiles.insert(canonical)
        let chain = context.includeChain.isEmpty ? [FilePaths.canonical(context.file)] : context.includeChain
        if let start = chain.firstIndex(of: canonical) {
            context.shared.includeCycleFiles.formUnion(chain[start...])
            let names = (chain + [canonical]).map { ($0 as NSString).lastPathComponent }
            context.error("include cycle: " + names.joined(separator: " → "), at: node)
            return nil
        }
        guard chain.count < LoadBudget.maximumIncludeDepth else {
            context.error("includes are nested more than \(LoadBudget.maximumIncludeDepth) deep", at: node)
            return nil
        }
        context.shared.includeCount += 1
        guard context.shared.includeCount <= LoadBudget.maximumIncludes else {
            if context.shared.includeCount == LoadBudget.maximumIncludes + 1 {
                context.error(
                    "the suite includes files too many times (over \(LoadBudget.maximumIncludes) includes once "
                        + "includes are expanded)", at: node)
            }
            return nil
        }
        // Locations in the included file read as it is named from the current directory, like the suite's.
        let path = siblingPath(path, of: context.file)
        guard let composed = composed(absolute, named: path, at: node, in: context) else { return nil }
        let included = context.including(
            file: path, directory: (absolute as NSString).deletingLastPathComponent, document: composed.document,
            root: composed.root, source: composed.source, includeChain: chain + [canonical])
        if composed.root == nil {
            context.error("the included file is empty", at: SourceLocation(file: path, line: 1, column: 1))
        }
        return included
    }

    /// The text and document of the file at `absolute`, read and composed on its first include; `nil` after
    /// reporting a file that is not UTF-8 text or not YAML.
    private static func composed(
        _ absolute: String, named path: String, at node: YAMLNode, in context: SuiteParseContext
    ) -> SuiteParseContext.ComposedFile? {
        if let composed = context.shared.composedIncludes[absolute] { return composed }
        guard let data = FileManager.default.contents(atPath: absolute),
            let source = String(data: data, encoding: .utf8)
        else {
            context.error("include '\(path)' is not readable UTF-8 text", at: node)
            return nil
        }
        context.shared.includedSources[path] = source
        do {
            let (document, root) = try YAMLComposer.compose(source)
            let composed = SuiteParseContext.ComposedFile(source: source, document: document, root: root)
            context.shared.composedIncludes[absolute] = composed
            return composed
        } catch {
            context.report(YAMLErrorDiagnostic.make(error, text: SourceText(file: path, text: source)))
            return nil
        }
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
