package import APITestJSON
import Foundation

/// A suite as an importer understood its source (curl command lines, a HAR file, a Postman collection), before it is
/// written: ``ImportedSuiteRenderer`` turns it into one suite file.
package struct ImportedSuite: Sendable {
    /// The suite's `name`.
    package var name: String
    /// `baseURL`, when the importer found one the requests share (their URLs are then relative to it).
    package var baseURL: String?
    /// `variables`, in order; values may hold placeholders of earlier variables and `{{ env.NAME }}`.
    package var variables: [(name: String, value: JSONValue)] = []
    /// `defaults`: settings every request shares.
    package var defaults = ImportedDefaults()
    /// `security`: certificate trust, pins and client certificates; nil writes none (full verification).
    package var security: ImportedSecurity?
    /// The tests, in the source's order.
    package var tests: [ImportedTest] = []
    /// Lines of the comment at the top of the file (after the editor modeline): where the suite comes from.
    package var header: [String] = []
    /// What was not translated that concerns the whole suite (written at the top of the file).
    package var notes: [ImportNote] = []
    /// Files to write beside the suite, which it names (``ImportedFile``).
    package var files: [ImportedFile] = []

    /// A suite named `name`.
    package init(name: String) {
        self.name = name
    }

    /// Every note of the suite and of its tests, in file order.
    package var allNotes: [ImportNote] {
        notes + tests.flatMap { $0.notes + $0.laterSteps.flatMap(\.notes) }
    }

    /// The environment variables the suite reads (`{{ env.NAME }}` anywhere in its values), in first-use order.
    package var environmentVariables: [String] {
        var names: [String] = []
        var seen: Set<String> = []
        // The values only: comments and notes may mention a variable without the suite reading it.
        var values = self
        values.header = []
        values.notes = []
        for index in values.tests.indices {
            values.tests[index].comments = []
            values.tests[index].notes = []
        }
        // Searched as bytes: Foundation's `range(of:)` on a substring copies the rest of the text at every call,
        // which made a suite with thousands of references quadratic.
        let text = Array(ImportedSuiteRenderer(suite: values, schemaReference: nil).render().utf8)
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

/// A suite's `defaults`: what every request gets unless it says otherwise.
package struct ImportedDefaults: Sendable, Equatable {
    /// `defaults.headers`, in order.
    package var headers: [ImportedHeader] = []
    /// `defaults.timeout`, in seconds.
    package var timeout: Double?
    /// `defaults.followRedirects`.
    package var followRedirects: Bool?
    /// `defaults.maxRedirects`.
    package var maxRedirects: Int?
    /// `defaults.compressed`: whether requests ask for compressed responses (`Accept-Encoding`).
    package var compressed: Bool?
    /// `defaults.auth`.
    package var auth: ImportedAuth?
    /// `defaults.resolve`, `connectTo`, `unixSocket`, `httpVersion`, `proxy` and `noProxy`.
    package var transport = ImportedTransport()

    /// Empty defaults.
    package init() {}

    /// Whether nothing is set.
    package var isEmpty: Bool {
        self == ImportedDefaults()
    }
}

/// A suite's `security` block: how certificate chains are trusted (see docs/security.md). File paths are as they
/// are written into the suite (relative to its folder).
package struct ImportedSecurity: Sendable, Equatable {
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
        self == ImportedSecurity()
    }
}

/// A header field: a name and a value, in the order they are sent.
package struct ImportedHeader: Sendable, Hashable {
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
