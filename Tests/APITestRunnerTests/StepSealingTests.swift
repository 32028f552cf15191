import APITestResults
import APITestSecrets
import APITestSupport
import Foundation
import Testing

@testable import APITestRunner

/// The step's sealing point (`StepDraft.sealed(by:)`): every text of a draft is masked and the long ones cut, a
/// field added later cannot be forgotten (the tests walk the draft and the result with `Mirror`), and outside
/// `APITestResults` a `StepResult` cannot be built but by sealing (the compiler says so).
@Suite struct StepSealingTests {
    static let secret = "Zq9-s3cret-Kx7w"
    /// Long enough to be cut by every limit, the secret at its end.
    static let long = String(repeating: "a", count: 3000) + secret

    /// Texts of a result that sealing leaves as they are, by their path of property names: names written in the
    /// suite, the method and HTTP version, the remote address, and the reproduce commands (see `sealed(by:)`).
    static let unmasked: Set<String> = Set(
        [
            "location.file", "failures.location.file", "warnings.location.file", "checks.location.file",
            "error.location.file", "error.undefinedVariable", "captured", "exchange.method", "exchange.httpVersion",
            "exchange.remoteAddress", "exchange.requestHeaders.name", "exchange.sentRequestHeaders.name",
            "exchange.responseHeaders.name", "reproduce.words", "reproduce.input", "reproduce.notes",
            "reproduce.oneLine", "earlierAttempts.words", "earlierAttempts.input", "earlierAttempts.notes",
            "earlierAttempts.oneLine", "tokenExchanges.method", "tokenExchanges.httpVersion",
            "tokenExchanges.remoteAddress", "tokenExchanges.requestHeaders.name",
            "tokenExchanges.sentRequestHeaders.name",
            "tokenExchanges.responseHeaders.name", "earlierExchanges.method", "earlierExchanges.httpVersion",
            "earlierExchanges.remoteAddress", "earlierExchanges.requestHeaders.name",
            "earlierExchanges.sentRequestHeaders.name", "earlierExchanges.responseHeaders.name",
        ]
    ).union(
        ["exchange", "tokenExchanges", "earlierExchanges"].flatMap { owner in
            [
                "method", "httpVersion", "remoteAddress", "requestHeaders.name", "sentRequestHeaders.name",
                "responseHeaders.name",
            ].map { "\(owner).redirectHops.\($0)" }
        })

    /// Whether `path` is the (empty) list of redirects of a redirect hop: a hop has no hops of its own.
    static func isHopOfAHop(_ path: String) -> Bool { path.hasSuffix("redirectHops.redirectHops") }

    /// A draft with every field set, every text holding the secret.
    static var draft: StepDraft {
        let s = secret
        let here = SourceLocation(file: "suite-\(s).yaml", line: 3, column: 5)
        let failure = AssertionFailure(
            location: here, subject: "$.\(s)", message: long, expected: long, actual: long)
        var exchange = ExchangeDraft(
            method: "GET\(s)", url: "http://h.test/?key=\(s)",
            requestHeaders: [Exchange.Header(name: "X-\(s)", value: s)], bodyPreviewLimit: 200)
        exchange.sentRequestHeaders = [Exchange.Header(name: "X-\(s)", value: s)]
        exchange.requestBody = .note("<file /tmp/\(s)>")
        exchange.requestBodySize = 10
        exchange.statusCode = 500
        exchange.httpVersion = "HTTP/1.1 \(s)"
        exchange.responseHeaders = [Exchange.Header(name: "X-\(s)", value: "v \(s)")]
        exchange.responseBody = .text(long, readBytes: long.utf8.count, totalSize: 9000)
        exchange.responseBodySize = 9000
        exchange.effectiveURL = "http://h.test/\(s)"
        exchange.remoteAddress = "127.0.0.1 \(s)"
        exchange.redirectCount = 1
        exchange.timings = Exchange.Timings(
            nameLookup: .zero, connect: .zero, tlsHandshake: .zero, firstByte: .zero, total: .milliseconds(1),
            preTransfer: .zero)
        exchange.timings?.firstEvent = .milliseconds(1)
        exchange.startedAt = Date(timeIntervalSince1970: 1)
        exchange.reasonPhrase = "OK \(s)"
        exchange.localPort = 40000
        exchange.responseBinary = Data([0xFF] + Array(s.utf8))
        exchange.requestParts = [
            Exchange.FormPart(name: "n\(s)", fileName: "f\(s)", contentType: "text/\(s)", value: "v\(s)")
        ]
        // A redirect followed on the way (for the HAR report): an exchange of its own, every field set.
        exchange.redirectHops = [exchange]
        let command = ReproduceCommand(words: ["curl-\(s)", "'\(s)'"], input: s, notes: [s], sequence: 1, oneLine: s)
        var draft = StepDraft(
            index: 0, location: here, exchange: exchange, failures: [failure],
            checks: [AssertionCheck(location: here, subject: "$.\(s)", expected: long, passed: false)],
            error: TestError(kind: .template, message: "no \(s)", location: here, undefinedVariable: s),
            captured: [s], attempts: 2)
        draft.warnings = [failure]
        draft.reproduce = command
        draft.earlierAttempts = [command]
        draft.label = "step › \(s)"
        draft.skipped = "when: false (\(s))"
        draft.tokenExchanges = [exchange]
        // Ids and times only (a traced run's step span): nothing to mask.
        draft.trace = StepTrace(spanID: SpanID(1), startNanoseconds: 1, endNanoseconds: 2)
        // An earlier attempt's exchange, sealed by a masker that knew no secret: the step's sealing masks it.
        draft.earlierExchanges = [exchange.sealed(by: KeepsEverything())]
        return draft
    }

    /// Masks nothing.
    struct KeepsEverything: SecretSealing {
        func mask(_ text: String) -> String { text }
        func maskHeader(name: String, value: String) -> String { value }
    }

    // MARK: - Walking values

    /// Every text reached from `value` with its path of property names (optionals, collections and an enum's
    /// payload are walked through), and the paths of optionals that are nil and collections that are empty.
    static func walk(_ value: Any, path: String = "") -> (texts: [(path: String, text: String)], unset: [String]) {
        if let text = value as? String { return ([(path, text)], []) }
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty, mirror.displayStyle == .optional || mirror.displayStyle == .collection {
            return ([], [path])
        }
        var texts: [(path: String, text: String)] = []
        var unset: [String] = []
        for child in mirror.children {
            var childPath = path
            // An optional's `some`, a collection's elements and an enum case's payload keep their parent's path.
            if let label = child.label, mirror.displayStyle == .struct || mirror.displayStyle == .class {
                childPath = path.isEmpty ? label : "\(path).\(label)"
            }
            let found = walk(child.value, path: childPath)
            texts += found.texts
            unset += found.unset
        }
        return (texts, unset)
    }

    // MARK: - Every field

    @Test func theFixtureSetsEveryFieldOfTheDraftWithTheSecretInEveryText() {
        let (texts, found) = Self.walk(Self.draft)
        let unset = found.filter { !Self.isHopOfAHop($0) }
        #expect(unset.isEmpty, "a field of the draft is not set by this test's fixture: \(unset)")
        // The earlier attempt's exchange was sealed: its binary body is the secret's bytes in base64, its body's
        // preview cut before the secret.
        let sealedAlready: Set = [
            "earlierExchanges.responseBodyBase64", "earlierExchanges.responseBody",
            "earlierExchanges.redirectHops.responseBodyBase64", "earlierExchanges.redirectHops.responseBody",
        ]
        let without = texts.filter { !$0.text.contains(Self.secret) && !sealedAlready.contains($0.path) }.map(\.path)
        #expect(without.isEmpty, "texts of the fixture without the secret: \(without)")
    }

    @Test func sealingMasksEveryTextButTheNamedOnes() throws {
        let result = Self.draft.sealed(by: SecretMasker(secrets: [Self.secret]))
        let (texts, found) = Self.walk(result)
        let unset = found.filter { !Self.isHopOfAHop($0) }
        #expect(unset.isEmpty, "sealing dropped a field: \(unset)")
        let shown = Set(texts.filter { $0.text.contains(Self.secret) }.map(\.path))
        #expect(shown.subtracting(Self.unmasked).isEmpty, "left unmasked: \(shown.subtracting(Self.unmasked))")
        #expect(Self.unmasked.subtracting(shown).isEmpty, "masked though listed: \(Self.unmasked.subtracting(shown))")
        // Binary bodies are masked before they are base64-encoded, an earlier attempt's again by the step's masker.
        let exchanges = [result.exchange, result.tokenExchanges?.first, result.earlierExchanges?.first]
        for exchange in exchanges + exchanges.map({ $0?.redirectHops?.first }) {
            let bytes = try #require(Data(base64Encoded: exchange?.responseBodyBase64 ?? "-"))
            #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.secret))
        }
        // What a report writes: the JSON of the result shows the secret only where the list says.
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains(SecretMasker.mask))
    }

    @Test func sealingCutsTheLongTextsAfterMaskingThem() {
        let result = Self.draft.sealed(by: SecretMasker(secrets: [Self.secret]))
        let failure = result.failures[0]
        #expect(failure.message.hasPrefix(String(repeating: "a", count: StepDraft.messageLimit) + "… ("))
        #expect(failure.message.count < StepDraft.messageLimit + 20)
        for value in [failure.expected, failure.actual, result.warnings[0].expected] {
            #expect((value?.count ?? 0) < StepDraft.valueLimit + 20)
        }
        #expect(result.warnings[0].message.count < StepDraft.messageLimit + 20)
        #expect(result.checks[0].expected.count < StepDraft.checkLimit + 20)
        let preview = result.exchange?.responseBody ?? ""
        #expect(preview.hasSuffix("… (9000 bytes in all)"), "\(preview.suffix(40))")
        #expect(preview.utf8.count <= 200 + "… (9000 bytes in all)".utf8.count)
    }

    @Test func aTextWithNothingToMaskIsKeptAsItIs() {
        var draft = StepDraft(index: 2, location: SourceLocation(file: "s.yaml", line: 1, column: 1))
        draft.label = "list users"
        draft.failures = [
            AssertionFailure(
                location: draft.location, subject: "status", message: "expected status 200, got 500",
                expected: "200", actual: "500")
        ]
        let result = draft.sealed(by: SecretMasker(secrets: [Self.secret]))
        #expect(result.label == "list users")
        #expect(result.failures == draft.failures)
        #expect(result.index == 2 && result.attempts == 1 && result.exchange == nil)
    }

    // MARK: - The only way in

    /// The folder of the built modules: beside the running test bundle, which SwiftPM puts next to the products.
    static var modules: URL {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var folder = URL(fileURLWithPath: CommandLine.arguments[0], relativeTo: current).standardizedFileURL
            .deletingLastPathComponent()
        while folder.path.contains(".xctest") { folder = folder.deletingLastPathComponent() }
        return folder.appendingPathComponent("Modules")
    }

    /// The repository: #filePath is <repo>/Tests/APITestRunnerTests/StepSealingTests.swift.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Type-checks `source` as a file of another module of this package that imports `APITestResults`; the
    /// compiler's errors, empty when it compiles.
    static func typeCheck(_ source: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sealing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Outside.swift")
        try Data(source.utf8).write(to: file)
        var arguments = [
            "swiftc", "-typecheck", "-I", modules.path, "-package-name", repository.lastPathComponent.lowercased(),
        ]
        // The module maps of the C modules the results' dependencies import (swift-numerics' shims).
        let checkouts = repository.appendingPathComponent(".build/checkouts")
        if let names = try? FileManager.default.contentsOfDirectory(atPath: checkouts.path) {
            for name in names {
                let map = checkouts.appendingPathComponent("\(name)/Sources/_NumericsShims/include/module.modulemap")
                if FileManager.default.fileExists(atPath: map.path) {
                    arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
                }
            }
        }
        arguments.append(file.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? "" : text
    }

    static let prelude = """
        import APITestResults
        import APITestSupport
        struct NoSecrets: SecretSealing {
            func mask(_ text: String) -> String { text }
            func maskHeader(name: String, value: String) -> String { value }
        }
        let here = SourceLocation(file: "s.yaml", line: 1, column: 1)

        """

    @Test(.timeLimit(.minutes(2)))
    func outsideTheResultsModuleAStepResultComesOnlyFromSealing() throws {
        // The way in compiles (and shows the modules were found, so the failures below are the compiler's verdict).
        let sealing = try Self.typeCheck(
            Self.prelude + "let result: StepResult = StepDraft(index: 0, location: here).sealed(by: NoSecrets())\n")
        #expect(sealing.isEmpty, "\(sealing)")
        let memberwise = try Self.typeCheck(
            Self.prelude
                + "let result = StepResult(index: 0, location: here, exchange: Exchange?.none, failures: [],"
                + " checks: [], error: TestError?.none, captured: [], attempts: 1)\n")
        // The memberwise initializer is not visible: no initializer matches.
        #expect(memberwise.contains("error: no exact matches in call to initializer"), "\(memberwise)")
        let assignment = try Self.typeCheck(
            Self.prelude + """
                func leak(_ result: inout StepResult, _ text: String) {
                    result.failures = [AssertionFailure(location: here, subject: "s", message: text)]
                }

                """)
        #expect(assignment.contains("setter is inaccessible"), "\(assignment)")
        // A report's step is made only by decoding a report's JSON, not from text of the caller's own.
        let reported = try Self.typeCheck(
            Self.prelude
                + "let result = StepResult(reported: StepResult.Reported(index: 0, location: here,"
                + " failures: [AssertionFailure(location: here, subject: \"s\", message: \"unmasked\")],"
                + " label: \"unmasked\"))\n")
        #expect(reported.contains("error: "), "\(reported)")
        #expect(!reported.contains("error: cannot find"), "\(reported)")
        let unwrapped = try Self.typeCheck(
            Self.prelude + """
                func leak(_ reported: inout StepResult.Reported, _ text: String) {
                    reported.step.label = text
                }

                """)
        #expect(unwrapped.contains("'step' is inaccessible"), "\(unwrapped)")
        // The way in through decoding compiles.
        let decoding = try Self.typeCheck(
            Self.prelude + """
                func read(_ decoder: any Decoder) throws -> StepResult {
                    StepResult(reported: try StepResult.Reported(from: decoder))
                }

                """)
        #expect(decoding.isEmpty, "\(decoding)")
    }
}
