import APITestJSON
package import APITestSuiteWriting

/// Turns a Postman collection, with its optional environment and globals, into one ``SuiteDocument``.
///
/// - Every request becomes a test named by its folder path (`Users › Create user`), tagged with a slug of each folder
///   above it (`users`), in collection order; folders are tags, not suites, so one collection is one file that runs
///   like the collection (docs/import.md "Postman").
/// - A request that reads a variable an earlier request's script captured (`pm.environment.set("token", ...)`) joins
///   that request's test as a later step: apitest's captures are visible to later steps of the same test only.
/// - Globals, collection and environment variables are suite variables (see ``PostmanVariableScope``); auth
///   (basic, bearer, API key; `inherit` and `noauth` as Postman resolves them) is written on each request; other
///   auth types, pre-request scripts and every test-script line not translated are notes.
package struct PostmanImporter: Sendable {
    /// The collection.
    package var collection: PostmanCollection
    /// Its environment, when one was given.
    package var environment: PostmanEnvironment?
    /// The globals, when given.
    package var globals: PostmanEnvironment?
    /// The source files' names, for the suite's header comment: collection, environment, globals.
    package var files: [String]

    /// An importer of `collection` with `environment` and `globals`.
    package init(
        collection: PostmanCollection, environment: PostmanEnvironment? = nil, globals: PostmanEnvironment? = nil,
        files: [String] = []
    ) {
        self.collection = collection
        self.environment = environment
        self.globals = globals
        self.files = files
    }

    /// A request of the collection with what it inherits from the folders above it.
    struct Entry {
        /// The names from the collection down to the request: `[collection, folder, ..., request]`.
        var path: [String]
        /// The request entry.
        var item: PostmanRequestItem
        /// The auth that applies (nil: none).
        var auth: PostmanAuth?
        /// Scripts of the collection and folders above, outermost first, with the path of their owner.
        var inheritedEvents: [(owner: [String], event: PostmanEvent)]
        /// The folders' and the request's own variables, narrowest winning.
        var localVariables: [String: String]

        /// `collection › folder › request`.
        var location: String { path.joined(separator: " › ") }
    }

    // MARK: - The suite

    /// The suite.
    package func suite() -> SuiteDocument {
        var scope = PostmanVariableScope(
            globals: globals?.variables ?? [], collection: collection.variables,
            environment: environment?.variables ?? [])
        var suite = SuiteDocument(name: collection.name)
        let version = collection.schemaVersion.map { " (format \($0))" } ?? ""
        suite.header.append(
            "Imported by `apitest import postman` from the Postman collection \(files.first ?? collection.name)\(version)."
        )
        if files.count > 1 { suite.header.append("Variables from: \(files.dropFirst().joined(separator: ", ")).") }
        suite.header.append(
            "Newman runs requests one after another; apitest runs tests concurrently: use `apitest run --jobs 1` to keep "
                + "the collection's order (the steps of one test always run in order).")
        var steps: [(entry: Entry, step: SuiteDocument.Step, tags: [String])] = []
        var suiteNotes: [SuiteDocument.Note] = []
        var notedOwners: Set<String> = []
        for entry in entries() {
            let (step, inheritedNotes) = self.step(entry, scope: &scope, notedOwners: &notedOwners)
            suiteNotes += inheritedNotes
            steps.append((entry, step, tags(entry)))
        }
        // Captured names: those set by some script. A later use joins the capturing request's test.
        for item in steps { for capture in item.step.captures { scope.captured.insert(capture.name) } }
        suite.tests = group(steps, scope: &scope)
        let variables = scope.suiteVariables()
        suite.variables = variables.map { (name: $0.name, value: JSONValue.string($0.value)) }
        suite.notes = scope.notes.map { SuiteDocument.Note(location: $0.location, text: $0.text) } + suiteNotes
        let secrets = scope.secretVariables
        if !secrets.isEmpty {
            suite.notes.append(
                SuiteDocument.Note(
                    location: "variables",
                    text: "credentials (by their names, or Postman's secret type) are read from the environment, not "
                        + "written into the suite: "
                        + secrets.map { "\($0.name) from \($0.environment)" }
                        .joined(separator: ", ") + "; set " + (secrets.count == 1 ? "it" : "them")
                        + " before apitest validate or run"))
        }
        let typed = scope.typedSecrets.variables
        if !typed.isEmpty {
            suite.notes.append(
                SuiteDocument.Note(
                    location: "auth",
                    text: "credentials typed into auth settings and headers are read from the environment, not "
                        + "written into the suite: "
                        + typed.map { "\($0.source) from \($0.name)" }.joined(separator: ", ") + "; set "
                        + (typed.count == 1 ? "it" : "them") + " before apitest validate or run"))
        }
        // Captures were recorded with Postman names; write apitest names.
        for index in suite.tests.indices {
            suite.tests[index].captures = suite.tests[index].captures.map { (scope.name(for: $0.name), $0.query) }
            for stepIndex in suite.tests[index].laterSteps.indices {
                suite.tests[index].laterSteps[stepIndex].captures = suite.tests[index].laterSteps[stepIndex].captures
                    .map {
                        (scope.name(for: $0.name), $0.query)
                    }
            }
        }
        return suite
    }

    /// Every request of the collection, depth first, with what it inherits.
    func entries() -> [Entry] {
        var result: [Entry] = []
        func walk(
            _ items: [PostmanItem], path: [String], auth: PostmanAuth?,
            events: [(owner: [String], event: PostmanEvent)],
            variables: [String: String]
        ) {
            for item in items {
                switch item {
                case .folder(let folder):
                    let folderPath = path + [folder.name]
                    var folderVariables = variables
                    for variable in folder.variables { folderVariables[variable.key] = variable.value }
                    walk(
                        folder.items, path: folderPath, auth: Self.resolve(folder.auth, inherited: auth),
                        events: events + folder.events.map { (folderPath, $0) }, variables: folderVariables)
                case .request(let request):
                    var requestVariables = variables
                    for variable in request.variables { requestVariables[variable.key] = variable.value }
                    result.append(
                        Entry(
                            path: path + [request.name], item: request,
                            auth: Self.resolve(request.request.auth, inherited: auth), inheritedEvents: events,
                            localVariables: requestVariables))
                }
            }
        }
        walk(
            collection.items, path: [collection.name], auth: Self.resolve(collection.auth, inherited: nil),
            events: collection.events.map { ([collection.name], $0) }, variables: [:])
        return result
    }

    /// The auth that applies: `own` unless it is absent or `inherit`; `noauth` is none.
    static func resolve(_ own: PostmanAuth?, inherited: PostmanAuth?) -> PostmanAuth? {
        guard let own, own.type != "inherit" else { return inherited }
        return own.type == "noauth" ? nil : own
    }

    /// The tags of a request: a slug of each folder above it.
    func tags(_ entry: Entry) -> [String] {
        entry.path.dropFirst().dropLast().map(Self.slug).filter { !$0.isEmpty }
    }

    /// `Users & Roles` → `users-roles`.
    static func slug(_ name: String) -> String {
        var result = ""
        for scalar in name.lowercased().unicodeScalars {
            let isWord = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar.value >= 0x80
            if isWord {
                result.unicodeScalars.append(scalar)
            } else if !result.isEmpty, !result.hasSuffix("-") {
                result += "-"
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result
    }

    // MARK: - One request

    /// The step of one request, and the notes of the scripts it inherits that were not noted before.
    func step(
        _ entry: Entry, scope: inout PostmanVariableScope, notedOwners: inout Set<String>
    ) -> (
        SuiteDocument.Step, [SuiteDocument.Note]
    ) {
        var notes: [SuiteDocument.Note] = []
        var step = SuiteDocument.Step(source: entry.location, request: request(entry, scope: &scope, notes: &notes))
        var suiteNotes: [SuiteDocument.Note] = []
        var checks: [ScriptCheck] = []
        var captures: [ScriptCapture] = []
        let events = entry.inheritedEvents + entry.item.events.map { (entry.path, $0) }
        for (owner, event) in events {
            let location = owner.joined(separator: " › ")
            let isOwn = owner == entry.path
            var eventNotes: [SuiteDocument.Note] = []
            if event.listen == "test" {
                let translation = PostmanScriptTranslator.translate(event.lines)
                checks += translation.checks
                captures += translation.captures
                eventNotes = translation.untranslated.map {
                    SuiteDocument.Note(location: "\(location): line \($0.number)", text: $0.text)
                }
            } else {
                eventNotes = event.lines.enumerated().compactMap { offset, line in
                    let text = line.trimmingSpaces
                    guard !text.isEmpty, !text.hasPrefix("//") else { return nil }
                    return SuiteDocument.Note(location: "\(location): pre-request line \(offset + 1)", text: text)
                }
                if !eventNotes.isEmpty {
                    eventNotes.insert(
                        SuiteDocument.Note(
                            location: location,
                            text: "the pre-request script is not run by apitest (its lines follow)"), at: 0)
                }
            }
            if isOwn {
                notes += eventNotes
            } else if notedOwners.insert("\(event.listen) \(location)").inserted {
                suiteNotes += eventNotes
            }
        }
        step.expect = Self.expectation(checks)
        step.captures = captures.map { (name: $0.name, query: JSONValue.object(JSONObject($0.query.members))) }
        step.notes = notes
        return (step, suiteNotes)
    }

    // MARK: - Tests from steps

    /// Groups steps into tests: a step that uses a name an earlier step of the collection captured joins (the test
    /// of) that step; tests joined by one step are merged, their steps in collection order.
    func group(
        _ steps: [(entry: Entry, step: SuiteDocument.Step, tags: [String])], scope: inout PostmanVariableScope
    ) -> [SuiteDocument.Test] {
        var groups: [[Int]] = []
        var groupOfStep: [Int] = []
        var capturedIn: [String: Int] = [:] // Postman name → group
        var usedBeforeCapture: Set<String> = []
        for (index, item) in steps.enumerated() {
            let text = JSONWriter.string(SuiteDocumentRenderer.request(item.step.request))
            var joined: Set<Int> = []
            for name in scope.captured where text.contains("{{ \(scope.name(for: name)) }}") {
                if let group = capturedIn[name] { joined.insert(group) } else { usedBeforeCapture.insert(name) }
            }
            let target: Int
            if let first = joined.min() {
                target = first
                for other in joined where other != first {
                    groups[first] += groups[other]
                    for member in groups[other] { groupOfStep[member] = first }
                    for (name, group) in capturedIn where group == other { capturedIn[name] = first }
                    groups[other] = []
                }
                groups[first].append(index)
                groups[first].sort()
            } else {
                target = groups.count
                groups.append([index])
            }
            groupOfStep.append(target)
            for capture in item.step.captures { capturedIn[capture.name] = target }
        }
        // A name used before any capture needs a suite variable as well (Postman sends its earlier value).
        scope.captured.subtract(usedBeforeCapture)
        return groups.filter { !$0.isEmpty }.map { members in
            let first = steps[members[0]]
            var test = SuiteDocument.Test(
                name: first.entry.path.dropFirst().joined(separator: " › "), request: first.step.request)
            test.tags = first.tags
            test.expect = first.step.expect
            test.captures = first.step.captures
            test.notes = first.step.notes
            test.comments =
                members.count > 1
                ? [
                    "Steps: " + members.map { steps[$0].entry.path.last ?? "" }.joined(separator: " → ")
                        + " (later requests use what earlier ones capture)."
                ] : []
            for member in members.dropFirst() {
                test.laterSteps.append(steps[member].step)
                for tag in steps[member].tags where !test.tags.contains(tag) { test.tags.append(tag) }
            }
            return test
        }
    }
}
