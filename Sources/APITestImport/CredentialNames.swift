/// The one rule every importer uses to tell a name that holds a credential (a header, a query parameter, a cookie, a
/// Postman variable): its value is read from the environment (`{{ env.NAME }}`), never written into the suite.
///
/// A name holds a credential when, in lower case, it is `key`, `sig` or `code`, or it contains one of
/// ``words``; `-`, `_`, `.` and spaces are left out before looking for the words, so `apiKey`, `api_key`,
/// `API-Key` and `private key` are all found.
enum CredentialNames {
    /// Words that mark a name as holding a credential, in lower case without separators.
    static let words = [
        "token", "secret", "password", "passwd", "passphrase", "apikey", "session", "auth", "signature",
        "credential", "csrf", "xsrf", "cookie", "privatekey", "accesskey", "clientkey",
    ]

    /// Names that hold a credential though they contain none of ``words``.
    static let exactNames: Set<String> = ["key", "sig", "code", "pwd", "pass"]

    /// Whether `name` holds a credential.
    static func isCredential(_ name: String) -> Bool {
        let lower = name.lowercased()
        if exactNames.contains(lower) { return true }
        let compact = String(lower.unicodeScalars.filter { !"-_. ".unicodeScalars.contains($0) }.map(Character.init))
        return words.contains { compact.contains($0) }
    }
}
