import APITestSuite
import APITestSuiteWriting
import APITestSupport
import Foundation
import Testing

@testable import APITestImport

/// curl's authentication and transport options into the suite's `auth` and transport keys: each translation, the
/// notes for what does not map, settings every command shares going to `defaults`; every suite loads, and what the
/// loader read back is checked.
struct CurlConnectionTests {
    /// The suite of `text` (files relative to a folder holding `my.netrc`), rendered and loaded by the suite loader.
    static func load(_ text: String) throws -> (imported: SuiteDocument, loaded: Suite, text: String) {
        let (importer, folder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("machine a login alice password secret\n".utf8).write(to: URL(fileURLWithPath: folder + "/my.netrc"))
        let suite = try importer.importTexts([text])
        let rendered = SuiteDocumentRenderer(suite: suite).render()
        let path = folder + "/suites/suite.yaml"
        try rendered.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            // Credentials written out are read from the environment (CurlCredentialTests): set every variable read.
            var environment = ["TOKEN": "t", "PASSWORD": "p", "KEY": "k"]
            for name in suite.environmentVariables where environment[name] == nil { environment[name] = "x" }
            let loaded = try SuiteLoader(environment: environment).load(path: path)
            return (suite, loaded, rendered)
        } catch {
            Issue.record("the imported suite does not load: \(error.render(colored: false))\n\(rendered)")
            throw error
        }
    }

    /// The loaded `auth` of test `index` (its request's own, else the suite's default).
    static func auth(_ suite: Suite, _ index: Int = 0) -> AuthSpec? {
        suite.tests[index].steps[0].request.auth ?? suite.defaults.auth
    }

    /// The notes of every test, rendered.
    static func notes(_ suite: SuiteDocument) -> [String] { suite.allNotes.map(\.rendered) }

    // MARK: - Authentication

    @Test func digestAndNTLMTakeTheUserAndPassword() throws {
        let (imported, loaded, text) = try Self.load(
            "curl -u \"alice:$PASSWORD\" --digest http://a/x; curl --ntlm -u \"CORP\\bob:$PASSWORD\" http://a/y")
        #expect(imported.tests[0].request.auth == .digest(user: "alice", password: "{{ env.PASSWORD }}"))
        #expect(imported.tests[1].request.auth == .ntlm(user: "CORP\\bob", password: "{{ env.PASSWORD }}"))
        #expect(imported.tests.allSatisfy { $0.request.basicAuth == nil })
        #expect(imported.defaults.auth == nil)
        #expect(
            text.contains("auth:\n        digest:\n          user: alice\n          password: \"{{ env.PASSWORD }}\""),
            "\(text)")
        guard case .digest(let credentials)? = Self.auth(loaded, 0), case .ntlm(let ntlm)? = Self.auth(loaded, 1)
        else {
            Issue.record("not digest and ntlm: \(text)")
            return
        }
        #expect(credentials.user.source == "alice")
        #expect(credentials.password.source == "{{ env.PASSWORD }}")
        #expect(ntlm.user.source == "CORP\\bob")
        #expect(Self.notes(imported).isEmpty)
        #expect(imported.environmentVariables == ["PASSWORD"])
    }

    @Test func sharedAuthGoesToDefaults() throws {
        let (imported, loaded, _) = try Self.load(
            "curl --digest -u \"alice:$PASSWORD\" http://a/x; curl --digest -u \"alice:$PASSWORD\" -X POST http://a/y")
        #expect(imported.defaults.auth == .digest(user: "alice", password: "{{ env.PASSWORD }}"))
        #expect(imported.tests.allSatisfy { $0.request.auth == nil })
        guard case .digest? = loaded.defaults.auth else {
            Issue.record("defaults.auth is \(String(describing: loaded.defaults.auth))")
            return
        }
    }

    @Test func oauth2BearerIsTheBearerKindAndWinsOverUser() throws {
        let (imported, loaded, _) = try Self.load(
            "curl --oauth2-bearer \"$TOKEN\" http://a/x; curl -u alice:secret --oauth2-bearer tok http://a/y; "
                + "curl --oauth2-bearer tok -H 'Authorization: Basic eDp5' http://a/z")
        #expect(imported.tests[0].request.auth == .bearer("{{ env.TOKEN }}"))
        // curl's authtype is then Bearer alone: it does not send -u's Basic credentials.
        #expect(imported.tests[1].request.auth == .bearer("{{ env.BEARER_TOKEN }}"))
        #expect(imported.tests[1].request.basicAuth == nil)
        // An Authorization field replaces curl's own.
        #expect(imported.tests[2].request.auth == nil)
        #expect(
            imported.tests[2].request.headers == [
                SuiteDocument.Header("Authorization", "Basic {{ env.AUTHORIZATION }}")
            ])
        #expect(imported.tests.allSatisfy { !$0.request.headers.contains { $0.value.hasPrefix("Bearer") } })
        guard case .bearer(let token)? = Self.auth(loaded, 0) else {
            Issue.record("not bearer")
            return
        }
        #expect(token.source == "{{ env.TOKEN }}")
    }

    @Test func awsSigV4WithRegionServiceAndSessionToken() throws {
        let (imported, loaded, text) = try Self.load(
            "curl --aws-sigv4 aws:amz:eu-west-1:execute-api -u \"AKID:$KEY\" -H \"x-amz-security-token: $TOKEN\" "
                + "-H 'X-Other: 1' https://a/x")
        let signature = AWSSigV4Credentials(
            accessKey: "AKID", secretKey: "{{ env.KEY }}", sessionToken: "{{ env.TOKEN }}", region: "eu-west-1",
            service: "execute-api")
        #expect(imported.defaults.auth == .awsSigV4(signature))
        #expect(imported.tests[0].request.headers == [SuiteDocument.Header("X-Other", "1")])
        guard case .awsSigV4(let spec)? = Self.auth(loaded) else {
            Issue.record("not awsSigV4: \(text)")
            return
        }
        #expect(spec.accessKey.source == "AKID")
        #expect(spec.sessionToken?.source == "{{ env.TOKEN }}")
        #expect(spec.region.source == "eu-west-1")
        #expect(spec.service.source == "execute-api")
        #expect(Self.notes(imported).isEmpty)
    }

    @Test func awsSessionTokenWrittenOtherwiseStaysAHeader() throws {
        // apitest sends `x-amz-security-token`; a field spelled otherwise is sent (and signed) as it is written.
        let (imported, _, _) = try Self.load(
            "curl --aws-sigv4 aws:amz:us-east-1:s3 -u AKID:secret -H 'X-Amz-Security-Token: T' https://a/x")
        guard case .awsSigV4(let signature)? = imported.defaults.auth else {
            Issue.record("not awsSigV4")
            return
        }
        #expect(signature.sessionToken == nil)
        #expect(
            imported.tests[0].request.headers == [
                SuiteDocument.Header("X-Amz-Security-Token", "{{ env.X_AMZ_SECURITY_TOKEN }}")
            ])
    }

    @Test func awsSigV4ThatDoesNotMapIsANote() throws {
        let (imported, _, _) = try Self.load(
            "curl --aws-sigv4 aws:amz:us-east-1 -u AKID:secret https://a/x; "
                + "curl --aws-sigv4 aws:amz:us-east-1:s3 https://a/y")
        #expect(imported.tests.allSatisfy { $0.request.auth == nil && $0.request.basicAuth == nil })
        let notes = Self.notes(imported)
        #expect(notes.contains { $0.hasPrefix("argument 1: --aws-sigv4 aws:amz:us-east-1 is not translated") })
        #expect(notes.contains { $0.hasPrefix("argument 1: --aws-sigv4 without -u KEY:SECRET is not translated") })
    }

    @Test func severalSchemesLetTheServerChooseAndAreNotes() throws {
        let (imported, _, _) = try Self.load(
            "curl --anyauth -u alice:secret http://a/x; curl --basic --digest -u alice:secret http://a/y; "
                + "curl --negotiate -u : http://a/z; curl --digest --no-digest -u alice:secret http://a/w")
        #expect(imported.tests[0...2].allSatisfy { $0.request.auth == nil && $0.request.basicAuth == nil })
        #expect(
            imported.tests[1].notes.map(\.rendered).contains(
                "argument 2: curl lets the server choose among --basic, --digest (it sends no credentials until "
                    + "challenged): not translated; keep one of them"))
        #expect(imported.tests[2].notes.map(\.rendered).contains { $0.contains("--negotiate (SPNEGO") })
        // --no-digest leaves libcurl's default, Basic.
        #expect(imported.tests[3].request.basicAuth?.username == "alice")
    }

    @Test func netrcForms() throws {
        let (imported, loaded, _) = try Self.load(
            "curl -n http://a/x; curl --netrc-file my.netrc http://a/y; curl --netrc-optional http://u:p@a/z; "
                + "curl -n http://u:p@a/w; curl -n -u alice:secret http://a/v")
        #expect(imported.tests[0].request.auth == .netrc(file: nil))
        // Relative to curl's folder (the suite's parent here), written relative to the suite.
        #expect(imported.tests[1].request.auth == .netrc(file: "../my.netrc"))
        #expect(imported.tests[2].request.auth == .netrc(file: nil))
        #expect(imported.tests[3].request.auth == nil)
        #expect(
            imported.tests[3].notes.map(\.rendered).contains {
                $0.hasPrefix("argument 1: netrc is not translated: curl's -n ignores the user name and password")
            })
        #expect(imported.tests[4].request.auth == nil)
        #expect(imported.tests[4].request.basicAuth?.username == "alice")
        guard case .netrc(let file)? = Self.auth(loaded, 1) else {
            Issue.record("not netrc")
            return
        }
        #expect(file?.hasSuffix("/my.netrc") == true)
    }

    @Test func digestBesideAnAuthorizationHeaderIsANote() throws {
        let (imported, _, _) = try Self.load("curl --digest -u a:b -H 'Authorization: X' http://a/x")
        #expect(imported.tests[0].request.auth == nil)
        #expect(Self.notes(imported).contains { $0.hasPrefix("argument 1: --digest with an Authorization header") })
    }

    // MARK: - Transport

    @Test func transportOptionsOfOneCommandGoToDefaults() throws {
        let (imported, loaded, text) = try Self.load(
            "curl --resolve a:443:127.0.0.1 --resolve 'b:443:[::1]' --connect-to a:443:c:8443 --unix-socket "
                + "run/api.sock --http1.1 -x http://proxy:3128 --noproxy localhost,127.0.0.1 https://a/x")
        var expected = SuiteDocument.Transport()
        expected.resolve = ["a:443:127.0.0.1", "b:443:[::1]"]
        expected.connectTo = ["a:443:c:8443"]
        expected.unixSocket = "../run/api.sock"
        expected.httpVersion = "1.1"
        expected.proxy = "http://proxy:3128"
        expected.noProxy = "localhost,127.0.0.1"
        #expect(imported.defaults.transport == expected)
        #expect(imported.tests[0].request.transport.isEmpty)
        #expect(Self.notes(imported).isEmpty, "\(Self.notes(imported))")
        let transport = try #require(loaded.defaults.transport, "\(text)")
        #expect(transport.resolve?.map(\.source) == ["a:443:127.0.0.1", "b:443:[::1]"])
        #expect(transport.connectTo?.map(\.source) == ["a:443:c:8443"])
        #expect(transport.unixSocket?.hasSuffix("/run/api.sock") == true)
        #expect(transport.httpVersion == .http11)
        #expect(transport.proxy?.source == "http://proxy:3128")
        #expect(transport.noProxy?.source == "localhost,127.0.0.1")
    }

    @Test func differingTransportStaysWithEachRequest() throws {
        let (imported, loaded, _) = try Self.load(
            "curl -x http://p:1 --http2 https://a/x; curl -x http://p:1 --http2-prior-knowledge http://a/y")
        #expect(imported.defaults.transport.proxy == "http://p:1")
        #expect(imported.defaults.transport.httpVersion == nil)
        #expect(imported.tests.map(\.request.transport.httpVersion) == ["2", "2-prior-knowledge"])
        #expect(loaded.tests[1].steps[0].request.transport?.httpVersion == .http2PriorKnowledge)
    }

    @Test func versionsThatDoNotMapAreNotes() throws {
        let (imported, _, _) = try Self.load(
            "curl --http2 http://a/x; curl --http1.0 http://a/y; curl --http3 https://a/z; "
                + "curl --http3 --http1.1 https://a/w")
        #expect(imported.tests[0...2].allSatisfy { $0.request.transport.httpVersion == nil })
        #expect(imported.tests[0].notes.map(\.rendered).contains { $0.contains("(Upgrade: h2c)") })
        #expect(imported.tests[1].notes.map(\.rendered).contains { $0.hasPrefix("argument 1: --http1.0 is not") })
        #expect(imported.tests[2].notes.map(\.rendered).contains { $0.contains("without HTTP/3") })
        // The last version option counts, as in curl.
        #expect(imported.tests[3].request.transport.httpVersion == "1.1")
        #expect(imported.tests[3].notes.isEmpty)
    }

    @Test func proxyCredentialsAndOddEntriesAreNotes() throws {
        let (imported, _, _) = try Self.load(
            "curl -x http://proxy:3128 -U alice:secret --connect-to a:443 --resolve -a:443 http://a/x")
        #expect(imported.defaults.transport.proxy == "http://proxy:3128")
        #expect(imported.defaults.transport.connectTo.isEmpty)
        #expect(imported.defaults.transport.resolve.isEmpty)
        let notes = Self.notes(imported)
        #expect(notes.contains { $0.hasPrefix("argument 3: -U alice:secret is not translated") })
        #expect(notes.contains { $0.hasPrefix("argument 5: --connect-to a:443 is not translated") })
        #expect(notes.contains { $0.hasPrefix("argument 7: --resolve -a:443: removing an entry is not translated") })
    }

    @Test func aResolveEntryCurlRefusesIsAnError() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        do {
            _ = try importer.importTexts(["curl --resolve a:443 http://a/x"])
            Issue.record("no error")
        } catch {
            #expect(
                error.description
                    == "argument 1: curl refuses --resolve a:443 (Couldn't parse CURLOPT_RESOLVE entry): expected "
                    + "host:port:address")
        }
    }
}
