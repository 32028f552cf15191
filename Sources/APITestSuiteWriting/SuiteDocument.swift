package import APITestJSON

/// A suite file as a command writes it: the one model of what `apitest import` (from curl command lines, a HAR file,
/// a Postman collection) and `apitest generate openapi` (from an OpenAPI document) write, and what later writers
/// fill too. ``SuiteDocumentRenderer`` turns it into the file's text through ``YAMLEmitter``, keys in the order of
/// docs/suite-format.md; every value is written as the model holds it (placeholders such as `{{ env.TOKEN }}` are
/// live: a writer escapes text that is data first, as ``TemplateLiteral`` does).
///
/// ```swift
/// var suite = SuiteDocument(name: "users")
/// suite.baseURL = "http://127.0.0.1:8080/"
/// suite.tests = [SuiteDocument.Test(name: "list", request: SuiteDocument.Request(url: "users"))]
/// let text = SuiteDocumentRenderer(suite: suite).render()
/// ```
package struct SuiteDocument: Sendable {
    /// The editor modeline's schema: the suite schema's path relative to the file's folder
    /// (`# yaml-language-server: $schema=../schemas/apitest.schema.json`, see ``EditorSchemaLocator``); nil writes no
    /// modeline.
    package var schemaReference: String?
    /// The suite's `name`.
    package var name: String
    /// `baseURL`, when the requests share one (their URLs are then relative to it).
    package var baseURL: String?
    /// `variables`, in order; values may hold placeholders of earlier variables and `{{ env.NAME }}`.
    package var variables: [(name: String, value: JSONValue)] = []
    /// Comment lines written right above `variables` (how to set one the writer could not know).
    package var variablesComments: [String] = []
    /// `openapi`: the document every response is checked against.
    package var openAPI: OpenAPISetting?
    /// `defaults`: settings every request shares.
    package var defaults = Defaults()
    /// `security`: certificate trust, pins and client certificates; nil writes none (full verification).
    package var security: Security?
    /// `setup`: steps run once before the tests (written as `tests` are).
    package var setup: [Test] = []
    /// The tests, in order. Their names are made unique within the file by the renderer (`login (2)`).
    package var tests: [Test] = []
    /// Comment lines written after the last test, in the `tests` list (what a writer left out after it).
    package var closingComments: [String] = []
    /// `teardown`: steps run in order once every test has finished (written as `tests` are).
    package var teardown: [Test] = []
    /// Lines of the comment at the top of the file (after the editor modeline): where the suite comes from.
    package var header: [String] = []
    /// What was not translated that concerns the whole suite (written at the top of the file, after ``header``).
    package var notes: [Note] = []
    /// Files to write beside the suite, which it names (``File``).
    package var files: [File] = []

    /// A suite named `name`.
    package init(name: String) {
        self.name = name
    }

    /// Every note of the suite and of its tests, in file order.
    package var allNotes: [Note] {
        notes + (setup + tests + teardown).flatMap { $0.notes + $0.laterSteps.flatMap(\.notes) }
    }

    /// The environment variables the suite reads (`{{ env.NAME }}` anywhere in its values), in first-use order.
    package var environmentVariables: [String] {
        var names: [String] = []
        var seen: Set<String> = []
        // The values only: comments and notes may mention a variable without the suite reading it.
        var values = self
        values.schemaReference = nil
        values.header = []
        values.notes = []
        values.variablesComments = []
        values.closingComments = []
        for index in values.setup.indices { values.setup[index].removeComments() }
        for index in values.tests.indices { values.tests[index].removeComments() }
        for index in values.teardown.indices { values.teardown[index].removeComments() }
        // Searched as bytes: Foundation's `range(of:)` on a substring copies the rest of the text at every call,
        // which made a suite with thousands of references quadratic.
        let text = Array(SuiteDocumentRenderer(suite: values).render().utf8)
        let opening = Array("{{ env.".utf8)
        let closing = Array(" }}".utf8)
        var position = 0
        while let start = text[position...].firstRange(of: opening) {
            guard let end = text[start.upperBound...].firstRange(of: closing) else { break }
            let name = String(decoding: text[start.upperBound..<end.lowerBound], as: UTF8.self)
            if seen.insert(name).inserted { names.append(name) }
            position = end.upperBound
        }
        return names
    }
}

// MARK: - Suite settings

extension SuiteDocument {
    /// A suite's `defaults`: what every request gets unless it says otherwise.
    package struct Defaults: Sendable, Equatable {
        /// `defaults.headers`, in order.
        package var headers: [Header] = []
        /// `defaults.timeout`, in seconds.
        package var timeout: Double?
        /// `defaults.followRedirects`.
        package var followRedirects: Bool?
        /// `defaults.maxRedirects`.
        package var maxRedirects: Int?
        /// `defaults.compressed`: whether requests ask for compressed responses (`Accept-Encoding`).
        package var compressed: Bool?
        /// `defaults.auth`.
        package var auth: Auth?
        /// `defaults.resolve`, `connectTo`, `unixSocket`, `httpVersion`, `proxy` and `noProxy`.
        package var transport = Transport()

        /// Empty defaults.
        package init() {}

        /// Whether nothing is set.
        package var isEmpty: Bool {
            self == Defaults()
        }
    }

    /// A suite's `openapi`: the document (a path as written into the suite) and, when set, the server whose path
    /// prefixes the document's paths.
    package struct OpenAPISetting: Sendable, Equatable {
        /// `file`.
        package var file: String
        /// `server`.
        package var server: String?

        /// The document at `file`, under `server`.
        package init(file: String, server: String? = nil) {
            self.file = file
            self.server = server
        }
    }

    /// A suite's `security` block: how certificate chains are trusted (see docs/security.md). File paths are as
    /// they are written into the suite (relative to its folder).
    package struct Security: Sendable, Equatable {
        /// `pinning`: `none`, `publicKey` or `certificate`.
        package var pinning: String?
        /// `pins`: `sha256//…` public-key pins.
        package var pins: [String] = []
        /// `certificates`: pinned certificate files.
        package var certificates: [String] = []
        /// `allowInvalidCertificates`.
        package var allowInvalidCertificates: Bool?
        /// `validatesDomainName`.
        package var validatesDomainName: Bool?
        /// `caFile`: a PEM bundle of trust anchors.
        package var caFile: String?
        /// `clientCertificate`: a PEM client certificate.
        package var clientCertificate: String?
        /// `clientKey`: its PEM key.
        package var clientKey: String?

        /// No setting.
        package init() {}

        /// Whether nothing is set.
        package var isEmpty: Bool {
            self == Security()
        }
    }

    /// A header field: a name and a value, in the order they are sent.
    package struct Header: Sendable, Hashable {
        /// The field name as written.
        package var name: String
        /// The value (may hold placeholders).
        package var value: String

        /// The field `name: value`.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }
}
