import APITestJSON
import APITestSupport
import APITestYAML
import Foundation

/// The second pass: every placeholder must name something visible where it is used, and URLs must be absolute
/// or have a base URL to resolve against.
///
/// Visible everywhere: the suite's variables (each variable sees only those before it), `--var` values and set
/// environment variables (`env.NAME`). Inside a test, a step also sees the captures of the steps before it.
struct ScopeChecker {
    /// The context of the suite's parsing, where problems are reported.
    let context: SuiteParseContext
    /// The environment variables the suite uses (`env.NAME`) that are set.
    private(set) var usedEnvironment: Set<String> = []

    /// Checks `suite` (just parsed in `context`) and returns the set environment variables it uses. The unset ones
    /// it uses are errors, or, when the loader defers them, kept in `context.shared.unsetEnvironment`.
    static func check(_ suite: Suite, in context: SuiteParseContext) -> Set<String> {
        var checker = ScopeChecker(context: context)
        checker.checkScopes(of: suite)
        if !checker.unset.isEmpty { context.shared.unsetEnvironment = checker.unset }
        return checker.usedEnvironment
    }

    // MARK: - Unset environment variables

    /// The part of the suite being checked, which a deferred use of an unset environment variable belongs to.
    private enum Scope {
        /// The base URL, `defaults`, `setup` and `teardown`: every test needs them.
        case suite
        /// A suite variable.
        case variable
        /// The test at this index of `tests`.
        case test(Int)
    }

    /// Where the placeholders being checked are.
    private var scope = Scope.suite
    /// The deferred uses of unset environment variables found so far.
    private var unset = UnsetEnvironment()
    /// The deferred uses of the variable being checked (its own, and those of the variables it uses).
    private var variableUses: [Diagnostic] = []
    /// The deferred uses of each variable that has any, by name (the last definition of a name counts).
    private var usesOfVariable: [String: [Diagnostic]] = [:]

    /// Keeps `uses` (deferred uses of unset environment variables) with the part being checked.
    private mutating func keep(_ uses: [Diagnostic]) {
        switch scope {
        case .suite: unset.suiteLevel += uses
        case .variable: variableUses += uses
        case .test(let index): unset.tests[index, default: []] += uses
        }
    }

    /// Why a name is not visible, for the note of an undefined-variable error. Each is a lookup built once (not a
    /// set of the names after the current one, which made n errors cost n² steps).
    private struct NameHints {
        /// The position in `variables:` of the variable being checked, and the last position of each name there.
        var variableIndex: Int?
        var lastVariableIndex: [String: Int] = [:]
        /// The position of the step being checked in its test, and the positions of the steps that capture each
        /// name, in order.
        var stepIndex: Int?
        var capturingSteps: [String: [Int]] = [:]
        /// The first test that captures each name.
        var capturingTest: [String: String] = [:]
        var currentTest: String?

        /// Whether `name` is defined after the variable being checked.
        func isDefinedLater(_ name: String) -> Bool {
            guard let variableIndex, let last = lastVariableIndex[name] else { return false }
            return last > variableIndex
        }

        /// Whether the step being checked captures `name`.
        func isOwnCapture(_ name: String) -> Bool {
            guard let stepIndex, let steps = capturingSteps[name] else { return false }
            var (low, high) = (0, steps.count)
            while low < high {
                let middle = (low + high) / 2
                if steps[middle] < stepIndex { low = middle + 1 } else { high = middle }
            }
            return low < steps.count && steps[low] == stepIndex
        }

        /// Whether a step after the one being checked captures `name`.
        func isCapturedLater(_ name: String) -> Bool {
            guard let stepIndex, let last = capturingSteps[name]?.last else { return false }
            return last > stepIndex
        }
    }

    /// The did-you-mean suggestions of undefined names compare each with every visible name: past this many
    /// comparisons in one suite, further errors come without one, so that n undefined names among n variables
    /// cost linear work rather than n² (the first errors, the ones a reader fixes first, keep theirs).
    static let suggestionComparisonBudget = 200_000

    /// What is left of `suggestionComparisonBudget`.
    private var suggestionComparisons = suggestionComparisonBudget

    /// Checks the variables in order, then the base URL, default headers, setup, teardown and each test's steps,
    /// then the request URLs.
    private mutating func checkScopes(of suite: Suite) {
        // Variables, in order.
        var known = Set(context.overrides.keys).union(TemplateContext.builtinNames)
        var hints = NameHints()
        let errorsBefore = context.diagnostics.count
        var lastVariableIndex: [String: Int]?
        scope = .variable
        for (index, variable) in suite.variables.enumerated() {
            variableUses = []
            if context.overrides[variable.name] == nil {
                checkNames(in: variable.value.templates, known: known) {
                    var variableHints = hints
                    variableHints.variableIndex = index
                    if lastVariableIndex == nil {
                        lastVariableIndex = Dictionary(
                            suite.variables.enumerated().map { ($1.name, $0) }, uniquingKeysWith: max)
                    }
                    variableHints.lastVariableIndex = lastVariableIndex ?? [:]
                    return variableHints
                }
            }
            known.insert(variable.name)
            if variableUses.isEmpty {
                if !usesOfVariable.isEmpty { usesOfVariable[variable.name] = nil }
            } else {
                usesOfVariable[variable.name] = variableUses
                unset.variables.insert(index)
            }
        }
        scope = .suite
        let loadTimeNames = known
        let values = context.diagnostics.count == errorsBefore ? loadContext(for: suite) : nil

        if let baseURL = suite.baseURL {
            checkNames(in: [baseURL], known: loadTimeNames) { hints }
            checkBaseURL(baseURL, values: values)
        }
        checkNames(
            in: suite.defaults.headers.map(\.value) + (suite.defaults.auth?.templates ?? [])
                + (suite.defaults.transport?.templates ?? []), known: loadTimeNames
        ) { hints }

        // Tests and steps are visited by index: copying each `Step` out of its array costs more than checking it.
        let tests = suite.tests
        for testIndex in tests.indices {
            for stepIndex in tests[testIndex].steps.indices where !tests[testIndex].steps[stepIndex].captures.isEmpty {
                for capture in tests[testIndex].steps[stepIndex].captures
                where hints.capturingTest[capture.name] == nil {
                    hints.capturingTest[capture.name] = tests[testIndex].name
                }
            }
        }
        // Steps see the built-in values and the captures of `setup`; `setup` sees its own earlier captures.
        let stepNames = loadTimeNames.union(TemplateContext.builtinNames)
        var setupVisible = stepNames
        checkSteps(suite.setup, visible: &setupVisible) { _ in hints }
        var teardownVisible = setupVisible
        checkSteps(suite.teardown, visible: &teardownVisible) { _ in hints }
        for testIndex in tests.indices {
            // A test without `when` whose steps have no placeholder, name, condition or loop has nothing to check
            // (every test of a generated suite, say).
            if tests[testIndex].when == nil, Self.haveNothingToCheck(tests[testIndex].steps) { continue }
            scope = .test(testIndex)
            var visible = setupVisible
            if !tests[testIndex].bindings.isEmpty { visible.formUnion(tests[testIndex].bindings.map(\.name)) }
            if let when = tests[testIndex].when {
                checkNames(in: when, known: visible) {
                    var testHints = hints
                    testHints.currentTest = tests[testIndex].name
                    return testHints
                }
            }
            let steps = tests[testIndex].steps
            var capturingSteps: [String: [Int]]?
            checkSteps(steps, visible: &visible) { index in
                var stepHints = hints
                stepHints.currentTest = tests[testIndex].name
                stepHints.stepIndex = index
                if capturingSteps == nil { capturingSteps = Self.capturingSteps(steps) }
                stepHints.capturingSteps = capturingSteps ?? [:]
                return stepHints
            }
        }
        scope = .suite
        for check in context.shared.urlChecks {
            checkRequestURL(check, hasBaseURL: suite.baseURL != nil, values: values)
        }
    }

    // MARK: - Steps

    /// True when no step of `steps` has a placeholder (`Step.hasOnlyLiteralTemplates`), a name, a condition or a
    /// loop: checking them would find nothing, whatever is visible.
    private static func haveNothingToCheck(_ steps: [Step]) -> Bool {
        for index in steps.indices where !steps[index].hasOnlyLiteralTemplates || steps[index].hasControl {
            return false
        }
        return true
    }

    /// The positions of the steps that capture each name, in order.
    private static func capturingSteps(_ steps: [Step]) -> [String: [Int]] {
        var positions: [String: [Int]] = [:]
        for index in steps.indices {
            for capture in steps[index].captures where positions[capture.name]?.last != index {
                positions[capture.name, default: []].append(index)
            }
        }
        return positions
    }

    /// Checks `steps` in order, each seeing `visible` and the captures of the steps before it. A group's list and
    /// condition see what its first step sees (the condition also the group's variable); its steps see the
    /// variable; a looping group's captures stay in it.
    private mutating func checkSteps(
        _ steps: [Step], visible: inout Set<String>, hints: (Int) -> NameHints
    ) {
        var groupEnd = -1
        var beforeGroup = visible
        for index in steps.indices {
            if steps[index].hasControl, let group = steps[index].control?.group {
                if let loop = group.loop { checkNames(in: loop.items, known: visible) { hints(index) } }
                var groupKnown = visible
                if let loop = group.loop { groupKnown.insert(loop.variable) }
                if let when = group.when { checkNames(in: when, known: groupKnown) { hints(index) } }
                if group.loop != nil {
                    beforeGroup = visible
                    groupEnd = index + group.count
                }
                visible = groupKnown
            }
            checkNames(in: steps[index], known: visible) { hints(index) }
            if !steps[index].captures.isEmpty { visible.formUnion(steps[index].captures.map(\.name)) }
            if index + 1 == groupEnd { visible = beforeGroup }
        }
    }

    // MARK: - Names

    /// Reports every placeholder in `templates` that names nothing in `known`; `hints` explain why, and are worked
    /// out only for an error.
    private mutating func checkNames(in templates: [Template], known: Set<String>, hints: () -> NameHints) {
        for template in templates { checkNames(in: template, known: known, hints: hints) }
    }

    /// Checks the names of every template of `step` (see `checkNames(in:known:hints:)`), without collecting them.
    private mutating func checkNames(in step: Step, known: Set<String>, hints: () -> NameHints) {
        guard step.hasControl else {
            // A step the parser saw no placeholder in has nothing to check.
            if step.hasOnlyLiteralTemplates { return }
            step.forEachTemplate { checkNames(in: $0, known: known, hints: hints) }
            return
        }
        // A step's `forEach` variable is visible in the step (its `when` included), not in its list.
        var stepKnown = known
        if let loop = step.loop {
            checkNames(in: loop.items, known: known, hints: hints)
            stepKnown.insert(loop.variable)
        }
        // `forEachTemplate` gives the lists of the step's group and of its own loop first: checked apart.
        var listsToSkip = (step.control?.group?.loop == nil ? 0 : 1) + (step.loop == nil ? 0 : 1)
        step.forEachTemplate { template in
            if listsToSkip > 0 {
                listsToSkip -= 1
                return
            }
            checkNames(in: template, known: stepKnown, hints: hints)
        }
        if let when = step.when { checkNames(in: when, known: stepKnown, hints: hints) }
    }

    /// Checks the names of a `when` condition.
    private mutating func checkNames(in condition: Condition, known: Set<String>, hints: () -> NameHints) {
        let template = Template(
            source: condition.source,
            segments: [
                .expression(
                    condition.expression, source: condition.source, location: condition.location,
                    length: max(1, condition.source.unicodeScalars.count))
            ], location: condition.location)
        checkNames(in: template, known: known, hints: hints)
    }

    /// Reports every placeholder of `template` that names nothing in `known`.
    private mutating func checkNames(in template: Template, known: Set<String>, hints: () -> NameHints) {
        template.forEachPlaceholder { name, location, length in
            if let variable = TemplateScanner.environmentName(name) {
                if context.environment[variable] != nil {
                    usedEnvironment.insert(variable)
                } else {
                    let error = Diagnostic.error(
                        "environment variable '\(variable)' is not set", at: location, length: length)
                    if context.shared.defersUnsetEnvironment { keep([error]) } else { context.report(error) }
                }
            } else if !known.contains(name) {
                let (message, note) = undefinedMessage(name, known: known, hints: hints())
                context.error(message, at: location, length: length, note: note)
            } else if !usesOfVariable.isEmpty, let uses = usesOfVariable[name] {
                // A variable that uses an unset environment variable: whoever uses it needs that variable.
                keep(uses)
            }
        }
    }

    /// The message of an undefined name, with a note that says why it is not visible or a did-you-mean (within
    /// `suggestionComparisonBudget`).
    private mutating func undefinedMessage(
        _ name: String, known: Set<String>, hints: NameHints
    ) -> (message: String, note: String?) {
        let message = "undefined variable '\(name)'"
        if hints.isDefinedLater(name) {
            return (message, "'\(name)' is defined later in 'variables'; a variable can use only those before it")
        }
        if hints.isOwnCapture(name) {
            return (message, "'\(name)' is captured by this step, from its response; only later steps can use it")
        }
        if hints.isCapturedLater(name) {
            return (message, "'\(name)' is captured by a later step; a step can use only captures of earlier steps")
        }
        if let test = hints.capturingTest[name], test != hints.currentTest {
            return (message, "'\(name)' is captured in test '\(test)'; captures are visible only in their own test")
        }
        guard suggestionComparisons >= known.count else { return (message, nil) }
        suggestionComparisons -= known.count
        return (message + Suggestion.didYouMean(name, amongUnordered: known), nil)
    }

    // MARK: - URLs

    /// The context known at load time (environment, `--var` values, variables), for checking URLs. A variable
    /// whose value would pass `LoadBudget.maximumRenderedBytes` is reported where it fails; other problems wait for
    /// the run, which reports them as it always has.
    private func loadContext(for suite: Suite) -> TemplateContext? {
        var suite = suite
        suite.environment = context.environment
        suite.unsetEnvironment.variables = unset.variables
        var values: TemplateContext
        do {
            values = try suite.makeContext()
        } catch {
            if error.kind == .tooLarge {
                context.error(
                    error.message, at: error.location ?? SourceLocation(file: context.file, line: 1, column: 1))
            }
            return nil
        }
        // A URL that starts with a built-in (`{{ now.unix }}/x`) is checked with a sample value, as it will run.
        let builtins = TemplateContext.builtinNames
        let urlUsesBuiltin = suite.containsStep { step in
            var usesBuiltin = false
            step.request.url.forEachPlaceholder { name, _, _ in usesBuiltin = usesBuiltin || builtins.contains(name) }
            return usesBuiltin
        }
        if urlUsesBuiltin { values.setBuiltins() }
        return values
    }

    /// The start of a URL that can be rendered at load time: up to the first placeholder with no value yet, and
    /// at most about `prefixLimit` bytes, which is all that telling its scheme needs (a variable may hold 64 MiB,
    /// and a suite 100,000 URLs that use it: rendering them whole would copy terabytes).
    private static func knownPrefix(of template: Template, values: TemplateContext?) -> String {
        var prefix = ""
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                prefix += String(decoding: text.utf8.prefix(prefixLimit), as: UTF8.self)
            case .placeholder(let name, _, _):
                guard let value = values?[name] else { return prefix }
                if case .string(let text) = value {
                    prefix += String(decoding: text.utf8.prefix(prefixLimit), as: UTF8.self)
                } else if JSONWriter.byteCount(of: value, limit: prefixLimit) != nil {
                    prefix += TemplateContext.text(of: value)
                } else {
                    // A long list or object: its first character is enough to tell it is no scheme.
                    if case .array = value { prefix += "[" } else { prefix += "{" }
                }
            case .expression:
                return prefix
            }
            if prefix.utf8.count >= prefixLimit { return prefix }
        }
        return prefix
    }

    /// The most bytes of a URL rendered at load time to check its scheme.
    private static let prefixLimit = 4096

    /// The scheme of a URL that starts with `scheme://`, else `nil`.
    static func scheme(of url: String) -> String? {
        // Most URLs in a suite are relative: no "://" among their bytes means none among their characters.
        guard hasSchemeSeparator(url), let range = url.range(of: "://") else { return nil }
        let scheme = url[..<range.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
        else { return nil }
        return String(scheme)
    }

    /// True when the UTF-8 bytes of `url` contain `://`.
    private static func hasSchemeSeparator(_ url: String) -> Bool {
        var url = url
        return url.withUTF8(hasSchemeSeparator)
    }

    /// True when `bytes` contain `://`.
    private static func hasSchemeSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var matched = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: ":"): matched = 1
            case UInt8(ascii: "/") where matched == 2: return true
            case UInt8(ascii: "/") where matched == 1: matched = 2
            default: matched = 0
            }
        }
        return false
    }

    /// Reports a base URL that is not an absolute http(s) URL, as far as it is known at load time.
    private func checkBaseURL(_ baseURL: Template, values: TemplateContext?) {
        let prefix = Self.knownPrefix(of: baseURL, values: values)
        guard baseURL.isLiteral || !prefix.isEmpty else { return }
        let scheme = Self.scheme(of: prefix)?.lowercased()
        if scheme != "http" && scheme != "https" {
            let rendered = prefix != baseURL.source && values.map { !$0.usesSecret(baseURL) } == true
            context.error(
                "baseURL '\(baseURL.source)' is not an absolute http(s) URL", at: baseURL.location,
                length: max(1, baseURL.source.unicodeScalars.count),
                note: rendered ? "it renders to '\(prefix)'" : "write it like http://host:port/path/")
        }
    }

    /// Reports an empty URL, a scheme other than http(s), and a relative URL without a base URL.
    private func checkRequestURL(_ check: SuiteParseContext.URLCheck, hasBaseURL: Bool, values: TemplateContext?) {
        let url = check.template
        Self.checkRequestURL(
            url, prefix: Self.knownPrefix(of: url, values: values), length: check.length, hasBaseURL: hasBaseURL,
            allowsWebSocket: check.allowsWebSocket, in: context)
    }

    /// The note of an empty `url`: what to write for the base URL itself (``RequestSpec/emptyURLNote(hasBaseURL:)``).
    static func emptyURLNote(_ hasBaseURL: Bool) -> String {
        RequestSpec.emptyURLNote(hasBaseURL: hasBaseURL)
    }

    /// Reports an empty URL, a scheme other than http(s), and a relative URL without a base URL; `prefix` is the
    /// start of the URL known at load time (all of a literal URL) and `length` the width of its node. Literal URLs
    /// of a suite with a base URL are checked as they are parsed (`RequestParser`), the others here.
    static func checkRequestURL(
        _ url: Template, prefix: String, length: @autoclosure () -> Int, hasBaseURL: Bool,
        allowsWebSocket: Bool = false, in context: SuiteParseContext
    ) {
        if RequestSpec.isBlankURL(url.source) {
            context.error(
                RequestSpec.emptyURLMessage(url.source), at: url.location, length: length(),
                note: emptyURLNote(hasBaseURL))
            return
        }
        // A URL that starts with a capture is known only at run time.
        guard !prefix.isEmpty else { return }
        if let scheme = Self.scheme(of: prefix) {
            let webSocket = allowsWebSocket && ["ws", "wss"].contains(scheme.lowercased())
            if !["http", "https"].contains(scheme.lowercased()) && !webSocket {
                context.error(
                    "unsupported URL scheme '\(scheme)' in '\(url.source)'; use http or https", at: url.location,
                    length: length())
            }
        } else if !hasBaseURL {
            context.error(
                "relative URL '\(url.source)' needs a 'baseURL' in the suite", at: url.location, length: length(),
                note: "add 'baseURL: http://host:port/' at the top level, or write an absolute http(s) URL")
        }
    }
}
