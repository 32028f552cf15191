import APITestSuite
import APITestSuiteWriting
import APITestSupport
import Foundation
import Testing

@testable import APITestImport

/// The option table and parser, the translation of each option, errors with positions and notes for what is not
/// translated; every imported suite loads.
struct CurlImporterTests {
    /// An importer whose files are relative to a new folder holding `body.json` and `photo.png`, and whose suite goes
    /// to its `suites/` folder.
    static func importer(lines: Bool = false) throws -> (CurlImporter, String) {
        let folder = try SuiteDocumentRendererTests.folder()
        try Data("{\"a\": 1}\n".utf8).write(to: URL(fileURLWithPath: folder + "/body.json"))
        try FileManager.default.createDirectory(atPath: folder + "/suites", withIntermediateDirectories: true)
        let options = CurlImporter.Options(
            workingDirectory: folder, outputDirectory: folder + "/suites", source: "a test", locatesLines: lines)
        return (CurlImporter(options: options), folder)
    }

    /// The suite of `text`, which must load.
    static func suite(_ text: String) throws -> SuiteDocument {
        let (importer, folder) = try importer()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let suite = try importer.importTexts([text])
        let rendered = SuiteDocumentRenderer(suite: suite).render()
        let path = folder + "/suites/suite.yaml"
        try rendered.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            var environment = ["TOKEN": "t", "PASSWORD": "p"]
            for name in suite.environmentVariables where environment[name] == nil { environment[name] = "x" }
            _ = try SuiteLoader(environment: environment).load(path: path)
        } catch {
            Issue.record("\(error.render(colored: false))\n\(rendered)")
        }
        return suite
    }

    @Test func theTableIsCurls() {
        #expect(CurlOption.all.count == 250)
        #expect(CurlOption.byShort["d"]?.long == "data")
        #expect(CurlOption.byShort["L"]?.takesArgument == false)
        #expect(CurlOption.byLong["json"]?.takesArgument == true)
    }

    @Test func clustersAttachedValuesAndNegation() throws {
        let words = try #require(try ShellSplitter.commands("-sSLXPOST -H'A: b' --no-location u").first?.words)
        let parsed = try CurlCommandParser.parse(words)
        #expect(parsed.map(\.spelling) == ["-s", "-S", "-L", "-X", "-H", "--no-location", "u"])
        #expect(parsed.map(\.position) == [1, 1, 1, 1, 2, 3, 4])
        #expect(parsed[3].value?.literal == "POST")
        #expect(parsed[4].value?.literal == "A: b")
        #expect(parsed[5].negated)
        #expect(parsed[6].option == nil)
    }

    @Test(arguments: [
        (
            "curl --data=x http://a",
            "argument 1: unknown curl option --data=x (curl takes the value as the next word, not after '=')"
        ),
        ("curl -sW http://a", "argument 1: unknown curl option -W"),
        ("curl http://a -H", "argument 2: -H needs an argument"),
        ("curl -s", "argument 1: the command has no URL"),
        (
            "curl -u alice http://a",
            "argument 1: -u alice has no password: curl would ask for it; write -u 'user:$API_PASSWORD'"
        ),
        (
            "curl -d a=1 -F b=2 http://a",
            "argument 1: curl refuses -d/--data and -F/--form together (one request method)"
        ),
        ("curl -d @missing.txt http://a", "argument 1: cannot read the file missing.txt"),
        ("curl -d @- http://a", "argument 1: @- reads standard input: save the data to a file first"),
        ("wget http://a", "'wget' is not a curl command (each command line starts with curl)"),
    ])
    func errorsNameTheArgument(_ text: String, _ message: String) throws {
        let (importer, importFolder) = try Self.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        #expect(throws: CurlImporter.Failure.self) { try importer.importTexts([text]) }
        do {
            _ = try importer.importTexts([text])
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func linesAreNamedForFiles() throws {
        let (importer, importFolder) = try Self.importer(lines: true)
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        do {
            _ = try importer.importTexts(["curl http://a\n\ncurl \\\n  --bogus http://b"])
            Issue.record("no error")
        } catch {
            #expect(error.description == "line 3, argument 1: unknown curl option --bogus")
        }
    }

    @Test func untranslatedOptionsAreNotesWithTheirPosition() throws {
        let suite = try Self.suite(
            "curl -s --connect-timeout 3 -U ann:pw -H 'Accept:' -b cookies.txt -u alice:secret http://a/x")
        let notes = suite.tests[0].notes.map(\.rendered)
        #expect(notes.contains { $0.hasPrefix("argument 2: --connect-timeout 3 is not translated") })
        #expect(
            notes.contains { $0.hasPrefix("argument 4: -U ann:pw is not translated: a suite has no proxy credentials") }
        )
        #expect(notes.contains { $0.hasPrefix("argument 6: -H 'Accept:'") })
        #expect(notes.contains { $0.hasPrefix("argument 8: -b cookies.txt: cookies from a file are not translated") })
        #expect(
            notes.contains {
                $0.hasPrefix(
                    "argument 10: the password of -u (--aws-sigv4's secret key) is read from the environment "
                        + "variable API_PASSWORD")
            })
        // -s is said once for the import, not on the test (CurlOutputNoteTests).
        #expect(
            suite.notes.map(\.rendered) == [
                "-s: apitest has no progress meter to silence, and reports every error; dropped"
            ])
        let text = SuiteDocumentRenderer(suite: suite).render()
        for note in notes { #expect(text.contains(String(note.prefix(40))), "\(note)") }
    }

    @Test func environmentPasswordIsNotWritten() throws {
        let suite = try Self.suite("curl -u \"alice:$PASSWORD\" -H \"Authorization2: $TOKEN\" http://a/x")
        let auth = try #require(suite.tests[0].request.basicAuth)
        #expect(auth.username == "alice")
        #expect(auth.password == "{{ env.PASSWORD }}")
        #expect(suite.tests[0].notes.isEmpty)
        #expect(suite.environmentVariables == ["TOKEN", "PASSWORD"])
    }

    @Test func insecureIsAnInvalidChainWithoutDomainValidation() throws {
        let suite = try Self.suite("curl -k https://a/x")
        #expect(suite.security?.allowInvalidCertificates == true)
        #expect(suite.security?.validatesDomainName == false)
        #expect(suite.defaults.followRedirects == false)
        #expect(suite.defaults.compressed == false)
    }

    @Test func filesAreRelativeToTheSuite() throws {
        let suite = try Self.suite("curl --data-binary @body.json http://a/x; curl -F f=@body.json http://a/y")
        guard case .file(let path, let type)? = suite.tests[0].request.body else {
            Issue.record("not a file body")
            return
        }
        #expect(path == "../body.json")
        #expect(type == "application/x-www-form-urlencoded")
        guard case .multipart(let parts)? = suite.tests[1].request.body else {
            Issue.record("not multipart")
            return
        }
        #expect(
            parts == [
                SuiteDocument.Part(
                    name: "f", content: .file("../body.json"), filename: "body.json",
                    contentType: "application/octet-stream")
            ])
        #expect(suite.variables.first?.name == "base")
        #expect(suite.tests.map(\.request.url) == ["{{ base }}/x", "{{ base }}/y"])
    }

    @Test func differentTLSSettingsAreRefused() throws {
        let (importer, importFolder) = try Self.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        #expect(throws: CurlImporter.Failure.self) { try importer.importTexts(["curl -k https://a; curl https://b"]) }
    }

    @Test func urlEncodingIsCurls() {
        #expect(CurlTranslation.urlEncoded(Data("a b&c=ü~-._".utf8)) == "a+b%26c%3D%C3%BC~-._")
    }
}
