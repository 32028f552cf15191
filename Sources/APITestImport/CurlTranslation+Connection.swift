import APITestSuiteWriting
import APITestSupport
import Foundation

extension CurlTranslation {
    // MARK: - Types

    /// One of curl's `authtype` bits (`--basic`, `--digest`, `--ntlm`, `--negotiate`, `--oauth2-bearer`).
    enum AuthScheme: String, Sendable, Hashable, Comparable {
        case basic, digest, ntlm, negotiate, bearer

        /// The option that chooses it.
        var option: String { self == .bearer ? "--oauth2-bearer" : "--" + rawValue }

        static func < (left: AuthScheme, right: AuthScheme) -> Bool { left.rawValue < right.rawValue }
    }

    /// `-n`/`--netrc`, `--netrc-optional` and `--netrc-file`, as curl 7.88 turns them into `CURLOPT_NETRC`: required
    /// with `-n` or `--netrc-file` (the URL's own user name and password are ignored), optional with
    /// `--netrc-optional`.
    struct NetrcChoice {
        /// `-n`.
        var required = false
        /// `--netrc-optional`.
        var optional = false
        /// `--netrc-file`, as the suite writes the path.
        var file: String?
        /// The position of the last of them.
        var position = 0

        /// Whether curl reads a netrc file.
        var isUsed: Bool { required || optional || file != nil }
    }

    /// What a request's credentials become: `basicAuth`, `auth`, the `-H` field that `auth` now sends, and notes.
    struct ResolvedAuth {
        /// `basicAuth`.
        var basic: (username: String, password: String)?
        /// `auth`.
        var auth: SuiteDocument.Auth?
        /// The lower-cased name of a `-H` field `auth` sends instead (`x-amz-security-token`).
        var movedHeader: String?
        /// What was not translated.
        var notes: [SuiteDocument.Note] = []
    }

    // MARK: - Options

    /// Applies an authentication or transport option.
    mutating func applyConnection(_ argument: CurlCommandParser.Argument) throws(CurlImporter.Failure) {
        guard let option = argument.option else { return }
        let position = argument.position
        let value = argument.value ?? ShellWord()
        let on = !argument.negated
        switch option.long {
        case "basic", "digest", "ntlm", "negotiate":
            let scheme = AuthScheme(rawValue: option.long) ?? .basic
            if on { authSchemes.insert(scheme) } else { authSchemes.remove(scheme) }
            authPosition = position
        case "anyauth":
            // curl sets every bit (CURLAUTH_ANY); --no-anyauth changes nothing.
            if on {
                authSchemes = [.basic, .digest, .ntlm, .negotiate, .bearer]
                authPosition = position
            }
        case "aws-sigv4": awsSigV4 = (try text(value, at: position), position)
        case "netrc":
            netrc.required = on
            netrc.position = position
        case "netrc-optional":
            netrc.optional = on
            netrc.position = position
        case "netrc-file":
            netrc.file = try file(value, at: position)
            netrc.position = position
        case "resolve": try transportEntry(value, at: position, for: argument.spelling, parts: 3)
        case "connect-to": try transportEntry(value, at: position, for: argument.spelling, parts: 4)
        case "unix-socket": transport.unixSocket = try file(value, at: position)
        case "proxy": transport.proxy = try text(value, at: position)
        case "noproxy": transport.noProxy = try text(value, at: position)
        case "proxy-user":
            note(
                position,
                "\(argument.spelling) \(value) is not translated: a suite has no proxy credentials of their own "
                    + "(a proxy URL can hold them: http://user:password@proxy:3128)")
        default:
            httpVersion = (option.long, position)
        }
    }

    /// A `--resolve` (`host:port:address`) or `--connect-to` (`host:port:connect-host:connect-port`) entry, kept when
    /// it has its `parts` (an IPv6 address in brackets is one part); else curl refuses the command (`--resolve`) or
    /// may skip the entry (`--connect-to`, a note).
    private mutating func transportEntry(
        _ word: ShellWord, at position: Int, for spelling: String, parts: Int
    ) throws(CurlImporter.Failure) {
        let entry = try text(word, at: position)
        if entry.hasPrefix("-") {
            note(position, "\(spelling) \(word): removing an entry is not translated")
            return
        }
        var count = 1
        var inBrackets = false
        for character in entry {
            if character == "[" { inBrackets = true }
            if character == "]" { inBrackets = false }
            if character == ":", !inBrackets { count += 1 }
        }
        if parts == 3, !Self.hasReference(word), count != 3 {
            throw CurlImporter.Failure(
                location: locate(position),
                message: "curl refuses \(spelling) \(word) (Couldn't parse CURLOPT_RESOLVE entry): expected "
                    + "host:port:address")
        }
        guard Self.hasReference(word) || count == parts else {
            // curl reads a --connect-to entry only when its host and port match the URL's.
            note(
                position,
                "\(spelling) \(word) is not translated: expected "
                    + (parts == 3 ? "host:port:address" : "host:port:connect-host:connect-port"))
            return
        }
        if parts == 3 { transport.resolve.append(entry) } else { transport.connectTo.append(entry) }
    }

    // MARK: - Per URL

    /// The transport settings of a request to `url`, with notes for what does not map (`--http2` on `http://`,
    /// HTTP/1.0 and HTTP/3).
    func transport(for url: String) -> (SuiteDocument.Transport, [SuiteDocument.Note]) {
        var result = transport
        guard let (long, position) = httpVersion else { return (result, []) }
        var notes: [SuiteDocument.Note] = []
        switch long {
        case "http1.1": result.httpVersion = "1.1"
        case "http2-prior-knowledge": result.httpVersion = "2-prior-knowledge"
        case "http2" where url.lowercased().hasPrefix("https://"): result.httpVersion = "2"
        case "http2":
            notes.append(
                SuiteDocument.Note(
                    location: locate(position),
                    text: "--http2 on an http:// URL is not translated: curl asks the server to upgrade (Upgrade: "
                        + "h2c), which a suite cannot; httpVersion: 2-prior-knowledge speaks HTTP/2 at once"))
        case "http1.0":
            notes.append(
                SuiteDocument.Note(
                    location: locate(position), text: "--http1.0 is not translated: a suite speaks HTTP/1.1 or 2"))
        default:
            notes.append(
                SuiteDocument.Note(
                    location: locate(position),
                    text: "--\(long) is not translated: the libcurl apitest runs on is built without HTTP/3"))
        }
        return (result, notes)
    }

    /// What the credentials of a request to `url` become, as libcurl 7.88 picks them: `--aws-sigv4` replaces the
    /// other schemes; one scheme is used at once; several make curl wait for the server's challenge (not
    /// translated); a `-H 'Authorization: …'` replaces Basic, Bearer and the AWS signature; `-u` replaces netrc.
    func resolvedAuth(for url: String) -> ResolvedAuth {
        var result = ResolvedAuth()
        let hasAuthorization = headers.contains { $0.name.lowercased() == "authorization" }
        if let awsSigV4 {
            if !hasAuthorization { awsSignature(awsSigV4.provider, at: awsSigV4.position, into: &result) }
            return result
        }
        let schemes = authSchemes.isEmpty ? [.basic] : authSchemes
        guard schemes.count == 1, let scheme = schemes.first else {
            result.notes.append(
                SuiteDocument.Note(
                    location: locate(authPosition),
                    text: "curl lets the server choose among "
                        + schemes.sorted().map(\.option).joined(separator: ", ")
                        + " (it sends no credentials until challenged): not translated; keep one of them"))
            return result
        }
        switch scheme {
        case .basic where hasAuthorization, .bearer where hasAuthorization:
            break
        case .basic:
            if let credentials {
                result.basic = credentials
            } else if netrc.isUsed {
                netrcAuth(for: url, into: &result)
            }
        case .bearer:
            result.auth = bearer.map { .bearer($0) }
        case .digest, .ntlm:
            if hasAuthorization {
                result.notes.append(
                    SuiteDocument.Note(
                        location: locate(authPosition),
                        text: "\(scheme.option) with an Authorization header is not translated: curl would send both "
                            + "once the server challenges (the header is sent)"))
            } else if let (user, password) = credentials {
                result.auth =
                    scheme == .digest ? .digest(user: user, password: password) : .ntlm(user: user, password: password)
            } else if netrc.isUsed {
                result.notes.append(
                    SuiteDocument.Note(
                        location: locate(netrc.position),
                        text: "netrc credentials with \(scheme.option) are not translated: a suite's auth is one "
                            + "kind (write -u 'user:$API_PASSWORD')"))
            }
        case .negotiate:
            result.notes.append(
                SuiteDocument.Note(
                    location: locate(authPosition),
                    text: "--negotiate (SPNEGO, Kerberos) is not translated: a suite has no equivalent"))
        }
        return result
    }

    /// `auth: {netrc: …}`, unless curl's required netrc would ignore credentials the URL holds, which apitest's
    /// (optional, as `--netrc-optional`) uses.
    private func netrcAuth(for url: String, into result: inout ResolvedAuth) {
        let authority = url.range(of: "://").map { url[$0.upperBound...] }?.prefix { !"/?#".contains($0) }
        if !netrc.optional, let authority, authority.contains("@") {
            result.notes.append(
                SuiteDocument.Note(
                    location: locate(netrc.position),
                    text: "netrc is not translated: curl's -n ignores the user name and password in the URL, a "
                        + "suite's netrc uses them (as --netrc-optional)"))
            return
        }
        result.auth = .netrc(file: netrc.file)
    }

    /// `auth: {awsSigV4: …}` of `--aws-sigv4 aws:amz:REGION:SERVICE` with `-u KEY:SECRET`, the session token from an
    /// `x-amz-security-token` field written as apitest sends it; a note for what apitest cannot sign the same way.
    private func awsSignature(_ provider: String, at position: Int, into result: inout ResolvedAuth) {
        let parts = provider.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0] == "aws", parts[1] == "amz", !parts[2].isEmpty, !parts[3].isEmpty else {
            result.notes.append(
                SuiteDocument.Note(
                    location: locate(position),
                    text: "--aws-sigv4 \(provider) is not translated: a suite signs as aws:amz:REGION:SERVICE (curl "
                        + "would take what is left out from the host name); give all four parts"))
            return
        }
        guard let (accessKey, secretKey) = credentials else {
            result.notes.append(
                SuiteDocument.Note(
                    location: locate(position),
                    text: "--aws-sigv4 without -u KEY:SECRET is not translated (write -u \"$AWS_ACCESS_KEY_ID:"
                        + "$AWS_SECRET_ACCESS_KEY\")"))
            return
        }
        var signature = AWSSigV4Credentials(
            accessKey: accessKey, secretKey: secretKey, region: parts[2], service: parts[3])
        // apitest sends the session token as `x-amz-security-token: TOKEN`, the field libcurl then signs: the same
        // bytes as this -H only when its name is written the same way.
        if let token = headers.first(where: { $0.name == "x-amz-security-token" }) {
            signature.sessionToken = token.value
            result.movedHeader = "x-amz-security-token"
        }
        result.auth = .awsSigV4(signature)
    }
}
