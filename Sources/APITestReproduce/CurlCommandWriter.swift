package import APITestHTTP
package import APITestResults
package import APITestSecrets
package import APITestSuite
import APITestSupport
import Foundation

/// Writes a request rendered twice with stand-ins (the runner's `ReproduceBuilder`) as the words of a curl command:
/// URL, method, headers in order, basic auth, body, timeouts, redirects, the schemes libcurl runs (Digest, NTLM, AWS
/// SigV4, netrc), transport settings and TLS settings, each quoted for the shell.
///
/// It mirrors how the HTTP layer configures libcurl (`CurlMultiLoop.configure`): the same method rules, `Expect:`
/// and `Content-Type:` suppressed as apitest suppresses them, `--compressed` for the encodings apitest offers.
package struct CurlCommandWriter {
    typealias Part = ReproduceSentinels.Part

    let first: ReproduceSentinels
    let second: ReproduceSentinels
    /// The context the request was rendered from, with the real values.
    let context: TemplateContext
    /// The request as sent, to hold the command to.
    let sent: HTTPRequest?
    let masker: SecretMasker

    /// The words so far.
    var words: [ShellWord] = ["curl"]
    /// The notes so far.
    private(set) var notes: [String] = []
    /// The command piped into curl (`printf '...'`), for a body with NUL bytes.
    var input: String?
    /// Whether the request renders the same twice from the same stand-ins (no generator such as `uuid()` in it): then
    /// renderings that differ where no stand-in shows differ by a stand-in a filter encoded.
    package var rendersTheSame = false
    /// The shell variable of each secret no environment variable holds, by template name.
    private var derivedVariables: [String: String] = [:]
    /// Every variable the command names for a secret it cannot hold.
    private var secretVariables: Set<String> = []

    /// A writer for requests rendered with `first` and `second`.
    package init(
        first: ReproduceSentinels, second: ReproduceSentinels, context: TemplateContext, sent: HTTPRequest?,
        masker: SecretMasker
    ) {
        self.first = first
        self.second = second
        self.context = context
        self.sent = sent
        self.masker = masker
    }

    /// The command written so far: its words quoted for a script, and on one line when a word holds a line feed.
    package var command: ReproduceCommand {
        var notes = notes
        if words.contains(where: \.holdsNUL), !notes.contains(where: { $0.contains("NUL bytes") }) {
            notes.append(
                "a value holds NUL bytes, which no shell argument can hold: the command passes it without them")
        }
        let script = words.map { $0.quoted(.script) }
        guard words.contains(where: \.holdsLineBreak) else {
            return ReproduceCommand(words: script, input: input, notes: notes)
        }
        // A line feed on one line: a variable set in a subshell (`$(printf '\n')` alone would lose a final one).
        let referenced = Set(words.flatMap(\.variableNames))
        var newline = "apitest_nl"
        while referenced.contains(newline) { newline += "_" }
        var line = "(\(newline)=$(printf '\\n.'); \(newline)=${\(newline)%.}; "
        if let input { line += input + " | " }
        line += words.map { $0.quoted(.line(newline: newline)) }.joined(separator: " ") + ")"
        return ReproduceCommand(words: script, input: input, notes: notes, oneLine: line)
    }

    // MARK: - Request

    /// Writes the words of `request`, rendered a second time as `other`.
    package mutating func write(
        _ request: HTTPRequest, _ other: HTTPRequest, timeout: Duration, connectTimeout: Duration
    ) {
        let url = field(Array(request.url.utf8), Array(other.url.utf8), sent: sent.map { Array($0.url.utf8) }, "URL")
        let urlWord = word(url)
        words.append(urlWord)
        // curl reads `[a-b]` and `{a,b}` in a URL as globs: nested query keys and `{{ name }}` must go as they are.
        let globs = urlWord.pieces.contains { piece in
            if case .literal(let bytes) = piece { return bytes.contains { "[]{}".utf8.contains($0) } }
            return true
        }
        if globs { words.append("--globoff") }

        let hasBody: Bool
        if case .none = request.body { hasBody = false } else { hasBody = true }
        let method = request.method.uppercased()
        if hasBody {
            if method != "POST" { option("-X", ShellWord(method)) }
        } else if method == "HEAD" {
            words.append("--head")
        } else if method != "GET" {
            option("-X", ShellWord(method))
        }

        writeHeaders(request, other, hasBody: hasBody)
        writeBody(request.body, other.body)
        if request.acceptEncoding == "" { words.append("--compressed") }
        option("--max-time", ShellWord(Self.seconds(request.timeout ?? timeout)))
        option("--connect-timeout", ShellWord(Self.seconds(request.connectTimeout ?? connectTimeout)))
        if request.followRedirects {
            let bound = Self.originBoundFieldNames(of: request)
            if bound.isEmpty {
                words.append("-L")
                option("--max-redirs", ShellWord(String(request.maxRedirects)))
            } else {
                // curl 7.88 carries custom headers to every host a redirect names; apitest left these out on a
                // redirect to another origin. Without -L, a command run by hand cannot send them elsewhere.
                note(
                    "redirects are not followed (no -L): apitest follows them itself and leaves out "
                        + bound.joined(separator: ", ")
                        + " on a redirect to another origin, which curl would send there; follow a Location by hand")
            }
        }
        writeAuthentication(request, other)
        writeTransport(request, other)
        writeSecurity(request)
    }

    /// The fields a redirect to another origin must leave out and curl would send along: the headers bound to the
    /// request's origin (their values come from secrets) but `Authorization` and `Cookie`, which curl itself leaves
    /// out on a redirect to another host, and an AWS session token; sorted, empty when none.
    static func originBoundFieldNames(of request: HTTPRequest) -> [String] {
        var names = request.originBoundHeaders.sorted.filter {
            !$0.caseInsensitiveEquals("authorization") && !$0.caseInsensitiveEquals("cookie")
        }
        if case .awsSigV4(let signature)? = request.authentication, signature.sessionToken != nil {
            names.append("x-amz-security-token")
        }
        return names
    }

    /// Appends an option and its argument.
    mutating func option(_ name: String, _ argument: ShellWord) {
        words.append(ShellWord(name))
        words.append(argument)
    }

    /// The shell variable a command sends as the OAuth2 access token.
    static let accessTokenVariable = "APITEST_OAUTH2_TOKEN"

    /// Adds `note` unless it is there already. Characters that do not show as themselves (a part name from a
    /// server may hold a line break or a right-to-left override) are written as `\u{..}`: a note is a comment line
    /// of a script, and must stay one and read in order.
    mutating func note(_ note: String) {
        let text = Self.noteEscaping.escape(note)
        if !notes.contains(text) { notes.append(text) }
    }

    /// A note's escaping: every control character and every non-ASCII one that does not show as itself.
    private static let noteEscaping = DisplayEscaping([.controls, .invisible])

    // MARK: - Headers

    private mutating func writeHeaders(_ request: HTTPRequest, _ other: HTTPRequest, hasBody: Bool) {
        let signs = request.authentication?.signsRequest == true
        var multipartType: String?
        if case .multipart(let form) = request.body { multipartType = form.contentType }
        let sentHeaders = sent?.headers
        for (index, header) in request.headers.enumerated() {
            let otherValue = index < other.headers.count ? other.headers[index].value : header.value
            if let multipartType, header.name.caseInsensitiveEquals("Content-Type"), header.value == multipartType {
                continue // curl writes its own, with its own boundary
            }
            let sentValue = sentHeaders.flatMap { index < $0.count ? Array($0[index].value.utf8) : nil }
            if header.name.caseInsensitiveEquals("Authorization"),
                let credentials = basicCredentials(header.value, otherValue, sent: sentValue)
            {
                option("-u", word(credentials))
                continue
            }
            var parts = field(
                Array(header.value.utf8), Array(otherValue.utf8), sent: sentValue, "header \(header.name)")
            if SecretMasker.sensitiveHeaders.contains(header.name.lowercased()) {
                parts = maskCredentials(in: parts, header: header.name)
            }
            let value = word(parts)
            // A signed request's User-Agent is not signed (the HTTP layer sets it apart, as curl's -A does).
            if signs, header.name.caseInsensitiveEquals("User-Agent") {
                option("-A", value)
                continue
            }
            option("-H", value.pieces.isEmpty ? ShellWord("\(header.name);") : value.prepending("\(header.name): "))
        }
        // curl signs every header line it is given, the empty ones that only suppress a header too: a signed
        // request sends none, as the HTTP layer does.
        if hasBody, !signs, !request.headers.contains("Expect") { option("-H", ShellWord("Expect:")) }
        if hasBody, !signs, !request.headers.contains("Content-Type") { option("-H", ShellWord("Content-Type:")) }
    }

    /// The `user:password` of a `Basic` credential, when both renderings hold one: curl's `-u` sends the same
    /// header, and a secret in it stays a variable instead of base64 that no shell expands.
    private mutating func basicCredentials(_ value: String, _ otherValue: String, sent: [UInt8]?) -> [Part]? {
        func decoded(_ value: String) -> [UInt8]? {
            let parts = value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, String(parts[0]).caseInsensitiveEquals("Basic"),
                let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
                data.contains(UInt8(ascii: ":"))
            else { return nil }
            return Array(data)
        }
        guard let pair = decoded(value), let otherPair = decoded(otherValue) else { return nil }
        let sentPair = sent.flatMap { decoded(String(decoding: $0, as: UTF8.self)) }
        // The user and the password as separate literals, so that a password written in the suite is masked alone.
        var parts: [Part] = []
        var beforeColon = true
        for part in field(pair, otherPair, sent: sentPair, "basic credentials") {
            guard beforeColon, case .literal(let bytes) = part, let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
            else {
                parts.append(part)
                continue
            }
            beforeColon = false
            parts.append(.literal(Array(bytes[...colon])))
            if colon + 1 < bytes.count { parts.append(.literal(Array(bytes[(colon + 1)...]))) }
        }
        return parts
    }

    /// `parts` of a header whose whole value is a credential (`Authorization`, `Cookie`, ...), with every literal
    /// credential replaced by a variable of its own: all but the scheme of an `Authorization`
    /// (`"${APITEST_AUTHORIZATION}"`), the values of a `Cookie` (`"${APITEST_COOKIE_SID}"`). References stay.
    mutating func maskCredentials(in parts: [Part], header: String) -> [Part] {
        var result: [Part] = []
        if header.caseInsensitiveEquals("Cookie") {
            var inValue = false
            var name: [UInt8] = []
            for part in parts {
                guard case .literal(let bytes) = part else {
                    result.append(part)
                    continue
                }
                var kept: [UInt8] = []
                var hidden = false
                func hide() {
                    if !kept.isEmpty { result.append(.literal(kept)) }
                    kept = []
                    let cookie = String(decoding: name, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    result.append(.reference(.credential(credentialVariable("cookie \(cookie)", header: header))))
                }
                for byte in bytes {
                    if byte == UInt8(ascii: ";") {
                        if hidden { hide() }
                        hidden = false
                        inValue = false
                        name = []
                        kept.append(byte)
                    } else if inValue {
                        hidden = true
                    } else {
                        if byte == UInt8(ascii: "=") { inValue = true } else { name.append(byte) }
                        kept.append(byte)
                    }
                }
                if hidden { hide() }
                if !kept.isEmpty { result.append(.literal(kept)) }
            }
        } else {
            for (index, part) in parts.enumerated() {
                guard case .literal(let bytes) = part else {
                    result.append(part)
                    continue
                }
                var keep = 0
                if index == 0, let space = bytes.firstIndex(of: UInt8(ascii: " ")) {
                    keep = space + 1
                    while keep < bytes.count, bytes[keep] == UInt8(ascii: " ") { keep += 1 }
                }
                if keep < bytes.count {
                    if keep > 0 { result.append(.literal(Array(bytes[..<keep]))) }
                    result.append(.reference(.credential(credentialVariable(header, header: header))))
                } else {
                    result.append(part)
                }
            }
        }
        return result
    }

    /// A new variable for a credential written in the suite, in `header`, with its note.
    private mutating func credentialVariable(_ what: String, header: String) -> String {
        let variable = secretVariable(what)
        note(
            "${\(variable)} stands for a credential written in the suite's \(header) header, which apitest masks "
                + "as it masks it in reports: set \(variable) to it")
        return variable
    }

    // MARK: - Fields

    /// The parts of a field rendered as `bytes` and as `other`: the stand-ins found in it, or, where a filter
    /// changed a stand-in (the renderings differ beyond their stand-ins), the placeholder in its place. When the
    /// field as `sent` is known and the variables' values do not rebuild it, a note says so.
    mutating func field(_ bytes: [UInt8], _ other: [UInt8], sent: [UInt8]?, _ what: String) -> [Part] {
        let parts = first.parts(of: bytes)
        let otherParts = second.parts(of: other)
        let changed = parts.contains { part in
            if case .literal(let literal) = part { return first.mentionsNonce(literal) }
            return false
        }
        let hasReferences = (parts + otherParts).contains { if case .reference = $0 { true } else { false } }
        // Renderings that differ where no stand-in shows: a filter encoded one beyond recognition (base64), unless
        // no stand-in was made at all (a binary property list's key order may differ from one encoding to the next).
        let encoded = rendersTheSame && bytes != other && first.hasStandIns
        if !hasReferences, !changed, !encoded, !second.mentionsNonce(other) {
            // Nothing secret or captured in it: the bytes sent, exactly. Credentials written in it are masked as
            // words are made.
            let exact = sent ?? bytes
            return exact.isEmpty ? [] : [.literal(exact)]
        }
        guard !changed, parts == otherParts else {
            return transformed(bytes, other, what)
        }
        if let sent, let rebuilt = rebuilt(parts), rebuilt != sent {
            let names = references(in: parts).map(Self.templateName).joined(separator: ", ")
            note(
                "apitest sent the \(what) with \(names.isEmpty ? "a value" : names) encoded (JSON or percent-"
                    + "encoding, or through a filter); this command passes the value as the variable holds it")
        }
        return parts
    }

    /// A field whose stand-ins a filter changed: the bytes both renderings share at each end, the placeholder
    /// between.
    private mutating func transformed(_ bytes: [UInt8], _ other: [UInt8], _ what: String) -> [Part] {
        var start = 0
        while start < bytes.count, start < other.count, bytes[start] == other[start] { start += 1 }
        var end = 0
        while end < bytes.count - start, end < other.count - start,
            bytes[bytes.count - 1 - end] == other[other.count - 1 - end]
        {
            end += 1
        }
        // The ends may hold the first or last characters of an encoded stand-in: keep only up to a separator.
        while start > 0, Self.isTokenByte(bytes[start - 1]) { start -= 1 }
        while end > 0, Self.isTokenByte(bytes[bytes.count - end]) { end -= 1 }
        let variable = secretVariable(what)
        note(
            "${\(variable)} stands for a value apitest derives from a secret or a capture through a filter in the "
                + "\(what): set \(variable) to it")
        var parts: [Part] = []
        if start > 0 { parts.append(.literal(Array(bytes[..<start]))) }
        parts.append(.reference(.credential(variable)))
        if end > 0 { parts.append(.literal(Array(bytes[(bytes.count - end)...]))) }
        return parts
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "%"):
            return true
        default: return false
        }
    }

    /// The field with every reference's real value in place; `nil` when a reference has no value here.
    private func rebuilt(_ parts: [Part]) -> [UInt8]? {
        var bytes: [UInt8] = []
        for part in parts {
            switch part {
            case .literal(let literal): bytes += literal
            case .reference(let reference):
                let name: String
                switch reference {
                case .environment(let variable): name = TemplateContext.environmentPrefix + variable
                case .derived(let derived, _): name = derived
                case .capture, .accessToken, .credential: return nil
                }
                guard let value = context[name] else { return nil }
                bytes += Array(TemplateContext.text(of: value).utf8)
            }
        }
        return bytes
    }

    private func references(in parts: [Part]) -> [ReproduceSentinels.Reference] {
        var result: [ReproduceSentinels.Reference] = []
        for case .reference(let reference) in parts where !result.contains(reference) { result.append(reference) }
        return result
    }

    /// `{{ env.NAME }}`, `{{ name }}`.
    static func templateName(_ reference: ReproduceSentinels.Reference) -> String {
        switch reference {
        case .environment(let name): return "{{ \(TemplateContext.environmentPrefix)\(name) }}"
        case .derived(let name, _), .capture(let name): return "{{ \(name) }}"
        case .accessToken: return "the OAuth2 access token"
        case .credential(let variable): return "${\(variable)}"
        }
    }

    // MARK: - Words

    /// The shell word of `parts`: literal text masked by the masker, each environment variable as `"${NAME}"`,
    /// other secrets as the placeholder, captures as `{{ name }}`; notes for what is not the value itself.
    mutating func word(_ parts: [Part]) -> ShellWord {
        ShellWord(pieces(parts))
    }

    /// The pieces of `parts` (see ``word(_:)``).
    mutating func pieces(_ parts: [Part]) -> [ShellWord.Piece] {
        var pieces: [ShellWord.Piece] = []
        for part in parts {
            switch part {
            case .literal(let bytes):
                pieces += maskedLiteral(bytes)
            case .reference(.environment(let name)):
                if ShellWord.isVariableName(name) {
                    pieces.append(.variable(name))
                } else {
                    let variable = derivedVariable(for: TemplateContext.environmentPrefix + name)
                    pieces.append(.variable(variable))
                    note(
                        "${\(variable)} stands for {{ env.\(name) }}: \(name) is not a name a shell can expand, set "
                            + "\(variable) to its value")
                }
            case .reference(.derived(let name, let given)):
                let variable = derivedVariable(for: name)
                pieces.append(.variable(variable))
                note(
                    given
                        ? "${\(variable)} stands for {{ \(name) }}, a secret --var or variables-file value, which "
                            + "apitest does not print: set \(variable) to it"
                        : "${\(variable)} stands for {{ \(name) }}, a secret the test derived when it ran (captured "
                            + "from a response, or made from a secret): set \(variable) to the value it had, which "
                            + "the earlier steps' commands return")
            case .reference(.accessToken):
                pieces.append(.variable(Self.accessTokenVariable))
                note(
                    "${\(Self.accessTokenVariable)} stands for the OAuth2 access token apitest obtained from the "
                        + "suite's token endpoint when the test ran: put a token in it")
            case .reference(.credential(let variable)):
                pieces.append(.variable(variable))
            case .reference(.capture(let name)):
                pieces.append(.literal(Array("{{ \(name) }}".utf8)))
                note("{{ \(name) }} is captured from a response when the test runs: put its value in")
            }
        }
        return pieces
    }

    /// The shell variable that stands for the secret `{{ name }}` in this command (the same for every use).
    private mutating func derivedVariable(for name: String) -> String {
        if let known = derivedVariables[name] { return known }
        let variable = secretVariable(name)
        derivedVariables[name] = variable
        return variable
    }

    /// A new shell variable for a secret the command cannot hold, named after `what`: `APITEST_` and `what` in
    /// upper case, other characters as `_` (`apiToken` is `APITEST_APITOKEN`, `cookie sid` `APITEST_COOKIE_SID`),
    /// numbered when the command has one of that name already. The prefix keeps it clear of the variables a shell
    /// already has (`PATH`, `HOME`).
    private mutating func secretVariable(_ what: String) -> String {
        var base = "APITEST_"
        for scalar in what.unicodeScalars {
            let isWordCharacter = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            base += isWordCharacter ? scalar.properties.uppercaseMapping : "_"
        }
        var variable = base
        var number = 1
        while variable == Self.accessTokenVariable || secretVariables.contains(variable) {
            number += 1
            variable = "\(base)_\(number)"
        }
        secretVariables.insert(variable)
        return variable
    }

    /// Literal bytes with any secret the masker knows replaced by a variable of its own (a credential written in
    /// the suite; a secret's value does not reach here, but text that happens to equal one is masked as reports
    /// mask it).
    private mutating func maskedLiteral(_ bytes: [UInt8]) -> [ShellWord.Piece] {
        guard let text = String(validating: bytes, as: UTF8.self) else { return [.literal(bytes)] }
        let masked = masker.mask(text)
        guard masked != text else { return [.literal(bytes)] }
        var pieces: [ShellWord.Piece] = []
        for (index, piece) in masked.components(separatedBy: SecretMasker.mask).enumerated() {
            if index > 0 {
                let variable = secretVariable("secret")
                pieces.append(.variable(variable))
                note(
                    "${\(variable)} stands for a credential or secret that apitest masks in reports and no "
                        + "environment variable holds: set \(variable) to it")
            }
            if !piece.isEmpty { pieces.append(.literal(Array(piece.utf8))) }
        }
        return pieces
    }

    // MARK: - Durations

    /// `d` in seconds as curl reads it: `30`, `0.5`, `2.25`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        guard fraction > 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
