import APITestSuiteWriting
import APITestSupport
import Foundation

/// One curl command line read into the request it sends: its options applied in order as curl applies them, then
/// turned into the tests of its URLs (``tests()``).
struct CurlTranslation {
    /// One piece of request data (`-d`, `--data-binary`, `--data-urlencode`, `--json`, ...).
    struct DataPiece {
        /// The data as suite text (placeholders for environment references, the rest escaped); nil for a file that
        /// is not UTF-8 text, which can only be the whole body.
        var text: String?
        /// A file whose bytes are the whole piece, when they can be streamed as they are (`--data-binary @file`).
        var file: String?
        /// The file the text was read from, as the command line names it: when the text is written into the suite,
        /// a note says so.
        var source: String?
        /// Whether the file's content is URL-encoded (`--data-urlencode name@file`).
        var isEncoded = false
        /// Whether the piece came from `--json` (concatenated to the one before it without `&`).
        var isJSON: Bool
        /// The argument's position.
        var position: Int
    }

    /// The position of an argument as a location (`argument 7`, `line 3, argument 7`).
    let locate: @Sendable (Int) -> String
    /// What was asked for.
    let options: CurlImporter.Options

    var method: String?
    var head = false
    var get = false
    var urls: [String] = []
    /// `-H` fields in order: name, value, position.
    var headers: [(name: String, value: String, position: Int)] = []
    /// Lower-cased names that `-H 'Name:'` removed.
    var removedHeaders: Set<String> = []
    var data: [DataPiece] = []
    var parts: [SuiteDocument.Part] = []
    /// Credentials written out on the command line (a password, a token, a credential header, cookie or query
    /// parameter), each read from an environment variable instead (``HARSecrets``, the mechanism every importer
    /// shares).
    var secrets = HARSecrets()
    /// `-u user:password`.
    var credentials: (username: String, password: String)?
    /// The position of `-u`.
    var credentialsPosition = 0
    /// The authentication schemes the options chose, as curl's `authtype` bits (none: libcurl's default, Basic).
    var authSchemes: Set<AuthScheme> = []
    /// The position of the last option that changed ``authSchemes``.
    var authPosition = 0
    /// `--aws-sigv4`'s provider argument (`aws:amz:us-east-1:s3`) and its position.
    var awsSigV4: (provider: String, position: Int)?
    /// `-n`, `--netrc-optional` and `--netrc-file` (as the suite writes the path).
    var netrc = NetrcChoice()
    /// `--resolve`, `--connect-to`, `--unix-socket`, `--proxy` and `--noproxy` (the HTTP version is ``httpVersion``).
    var transport = SuiteDocument.Transport()
    /// The last of `--http1.0`, `--http1.1`, `--http2`, `--http2-prior-knowledge`, `--http3`, `--http3-only`.
    var httpVersion: (long: String, position: Int)?
    var cookies: [String] = []
    var userAgent: String?
    var referer: String?
    var range: String?
    var bearer: String?
    var followRedirects = false
    var maxRedirects: Int?
    var compressed = false
    var timeout: Double?
    var security = SuiteDocument.Security()
    var notes: [SuiteDocument.Note] = []
    /// Options that only change what curl prints or saves: their long names, spellings and positions, in order
    /// (``CurlOutputNotes`` says them once for the whole import).
    var outputOnly: [(long: String, spelling: String, position: Int)] = []
    /// The command line as a shell would need it, for the tests' comment.
    var commandText = ""
    /// The secrets each argument gave (by the position ``noting(_:_:)`` was called with: an option's own word, its
    /// value the word after it or within it), so that the comment replaces a value only where it was taken from.
    var secretsByPosition: [Int: [HARSecrets.Use]] = [:]

    /// Reads `words` (those after `curl`).
    init(
        words: [ShellWord], locate: @escaping @Sendable (Int) -> String, options: CurlImporter.Options,
        secrets: HARSecrets = HARSecrets()
    )
        throws(CurlImporter.Failure)
    {
        self.locate = locate
        self.options = options
        self.secrets = secrets
        let arguments: [CurlCommandParser.Argument]
        do {
            arguments = try CurlCommandParser.parse(words)
        } catch {
            throw CurlImporter.Failure(location: locate(error.position), message: error.message)
        }
        for argument in arguments { try apply(argument) }
        guard !urls.isEmpty else {
            throw CurlImporter.Failure(location: locate(words.count), message: "the command has no URL")
        }
        if !data.isEmpty, !parts.isEmpty {
            throw CurlImporter.Failure(
                location: locate(1), message: "curl refuses -d/--data and -F/--form together (one request method)")
        }
    }

    // MARK: - Options

    /// Applies one option or URL.
    private mutating func apply(_ argument: CurlCommandParser.Argument) throws(CurlImporter.Failure) {
        let position = argument.position
        guard let option = argument.option else {
            urls.append(try url(argument.value ?? ShellWord(), at: position))
            return
        }
        let value = argument.value ?? ShellWord()
        let on = !argument.negated
        switch option.long {
        case "url": urls.append(try url(value, at: position))
        case "request": method = try literal(value, at: position, for: argument.spelling)
        case "head": head = on
        case "get": get = on
        case "header": try header(value, at: position)
        case "data", "data-ascii": data.append(try dataPiece(value, at: position, stripsLineBreaks: true))
        case "data-binary": data.append(try dataPiece(value, at: position, stripsLineBreaks: false))
        case "data-raw":
            data.append(DataPiece(text: try text(value, at: position), file: nil, isJSON: false, position: position))
        case "data-urlencode": data.append(try urlEncodedPiece(value, at: position))
        case "json":
            var piece = try dataPiece(value, at: position, stripsLineBreaks: false)
            piece.isJSON = true
            data.append(piece)
        case "form", "form-string":
            let part = try formPart(value, at: position, literal: option.long == "form-string")
            parts.append(part)
        case "user": try user(value, at: position)
        case "cookie":
            var cookie = try text(value, at: position)
            if cookie.contains("=") {
                if let literal = value.literal {
                    cookie = noting(position) { $0.header("Cookie", literal, entry: 0) }
                }
                cookies.append(cookie)
            } else {
                note(position, "-b \(value): cookies from a file are not translated (write them as -b 'name=value')")
            }
        case "user-agent":
            userAgent = try text(value, at: position)
            if userAgent == "" {
                note(position, "-A '' (no User-Agent header) cannot be written in a suite: apitest's is sent")
            }
        case "referer":
            var referer = try text(value, at: position)
            if referer.hasSuffix(";auto") {
                referer.removeLast(5)
                note(position, "';auto' of -e (a Referer for each redirect) is not translated")
            }
            self.referer = referer.isEmpty ? nil : referer
        case "range": range = "bytes=" + (try text(value, at: position))
        case "oauth2-bearer":
            bearer = try text(value, at: position)
            if let literal = value.literal, !literal.isEmpty {
                bearer = noting(position) {
                    $0.placeholder(for: literal, base: "BEARER_TOKEN", source: "the token of --oauth2-bearer", entry: 0)
                }
            }
            authSchemes.insert(.bearer)
            authPosition = position
        case "insecure":
            security.allowInvalidCertificates = on ? true : nil
            security.validatesDomainName = on ? false : nil
        case "location": followRedirects = on
        case "location-trusted":
            followRedirects = on
            note(position, "--location-trusted: credentials are not resent to other hosts after a redirect")
        case "max-redirs": maxRedirects = try integer(value, at: position, for: argument.spelling)
        case "compressed": compressed = on
        case "max-time": timeout = try seconds(value, at: position, for: argument.spelling)
        case "cacert": security.caFile = try file(value, at: position)
        case "cert": try certificate(value, at: position)
        case "key": security.clientKey = try file(value, at: position)
        case "cert-type", "key-type":
            if (try text(value, at: position)).uppercased() != "PEM" {
                note(position, "\(argument.spelling) \(value): only PEM certificates and keys are supported")
            }
        case "pinnedpubkey": try pins(value, at: position)
        case "globoff":
            break
        case "basic", "digest", "ntlm", "negotiate", "anyauth", "aws-sigv4", "netrc", "netrc-optional", "netrc-file",
            "resolve", "connect-to", "unix-socket", "proxy", "noproxy", "proxy-user", "http1.0", "http1.1", "http2",
            "http2-prior-knowledge", "http3", "http3-only":
            try applyConnection(argument)
        case "connect-timeout":
            note(
                position,
                "\(argument.spelling) \(value) is not translated: a suite has no connection time limit of its own "
                    + "(its timeout covers the whole request)")
        case let long where CurlOutputNotes.isOutputOnly(long):
            outputOnly.append((long, argument.spelling, position))
        default:
            note(
                position,
                "\(argument.spelling)\(argument.value.map { " \($0)" } ?? "") is not translated: a suite has no "
                    + "equivalent")
        }
    }

    /// Adds a note about the argument at `position`.
    mutating func note(_ position: Int, _ text: String) {
        notes.append(SuiteDocument.Note(location: locate(position), text: text))
    }

    /// What `make` returns, with a note at `position` for each environment variable it made in ``secrets``.
    mutating func noting(_ position: Int, _ make: (inout HARSecrets) -> String) -> String {
        let known = secrets.variables.count
        let knownUses = secrets.uses.count
        let result = make(&secrets)
        secretsByPosition[position, default: []] += secrets.uses[knownUses...]
        for variable in secrets.variables[known...] {
            note(
                position,
                "\(variable.source) is read from the environment variable \(variable.name), not written into the "
                    + "suite: set it before apitest validate or run")
        }
        return result
    }

    // MARK: - Values

    /// The word as suite text: `{{ env.NAME }}` for references, the literal text escaped (``TemplateLiteral``), so
    /// that placeholder syntax in the command line is sent as it is.
    func text(_ word: ShellWord, at position: Int) throws(CurlImporter.Failure) -> String {
        TemplateLiteral.joined(
            word.pieces.map {
                switch $0 {
                case .literal(let bytes): .literal(String(decoding: bytes, as: UTF8.self))
                case .variable(let name): .placeholder("{{ env.\(name) }}")
                }
            })
    }

    /// How an environment reference starts in suite text (escaped text never holds it: no two of its braces are
    /// adjacent).
    static let reference = "{{ env."

    /// Whether the word holds an environment reference.
    static func hasReference(_ word: ShellWord) -> Bool {
        word.pieces.contains { if case .variable = $0 { true } else { false } }
    }

    /// The word's text, which must not hold an environment reference (a method, a number, a file name).
    func literal(_ word: ShellWord, at position: Int, for spelling: String) throws(CurlImporter.Failure) -> String {
        guard let text = word.literal else {
            throw CurlImporter.Failure(
                location: locate(position), message: "\(spelling) takes a value written out, not a variable: \(word)")
        }
        return text
    }

    private func integer(
        _ word: ShellWord, at position: Int, for spelling: String
    ) throws(CurlImporter.Failure)
        -> Int
    {
        guard let number = Int(try literal(word, at: position, for: spelling)) else {
            throw CurlImporter.Failure(location: locate(position), message: "\(spelling) takes a whole number")
        }
        return number
    }

    private func seconds(
        _ word: ShellWord, at position: Int, for spelling: String
    ) throws(CurlImporter.Failure)
        -> Double
    {
        guard let number = Double(try literal(word, at: position, for: spelling)), number > 0 else {
            throw CurlImporter.Failure(
                location: locate(position), message: "\(spelling) takes a number of seconds greater than zero")
        }
        return number
    }

    /// An absolute URL as curl reads the word (`http://` added when it names no scheme).
    private mutating func url(_ word: ShellWord, at position: Int) throws(CurlImporter.Failure) -> String {
        var text = try self.text(word, at: position)
        if let literal = word.literal {
            // A password in the user information and credential query parameters: read from the environment.
            text = noting(position) { $0.url(literal, entry: 0) }
        }
        if text.contains("://") { return text }
        if case .variable? = word.pieces.first { return text }
        return "http://" + text
    }

    /// A file path for the suite: relative to the suite's folder (or absolute when it is outside every folder the
    /// two share but the root).
    func file(_ word: ShellWord, at position: Int) throws(CurlImporter.Failure) -> String {
        let path = try literal(word, at: position, for: "a file name")
        return suitePath(of: path)
    }

    /// `path` (relative to curl's folder) as the suite writes it.
    func suitePath(of path: String) -> String {
        let absolute = FilePaths.standardized(FilePaths.absolute(path, relativeTo: options.workingDirectory))
        let relative = RelativePath.from(directory: FilePaths.standardized(options.outputDirectory), to: absolute)
        return relative.hasPrefix("../../../") ? absolute : relative
    }

    /// Whether `path` (relative to curl's folder) lies outside that folder, symbolic links resolved.
    func isOutsideWorkingDirectory(_ path: String) -> Bool {
        let folder = FilePaths.canonical(options.workingDirectory)
        let file = FilePaths.canonical(path, relativeTo: options.workingDirectory)
        return !file.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// `the file PATH`, saying when it lies outside the folder curl runs in.
    func fileInWords(_ path: String) -> String {
        guard isOutsideWorkingDirectory(path) else { return "the file \(path)" }
        return "the file \(path), outside the folder curl runs in (\(options.workingDirectory)),"
    }

    /// The note for a file whose content is written into the suite instead of being named by it.
    func inlinedNote(_ path: String, at position: Int, because reason: String) -> SuiteDocument.Note {
        SuiteDocument.Note(
            location: locate(position),
            text: "the content of \(fileInWords(path)) is written into the suite (\(reason)); the suite does not "
                + "read the file again")
    }

    /// The bytes of the file `path` (relative to curl's folder).
    func contents(of path: String, at position: Int) throws(CurlImporter.Failure) -> Data {
        let absolute = FilePaths.absolute(path, relativeTo: options.workingDirectory)
        guard let data = FileManager.default.contents(atPath: absolute) else {
            throw CurlImporter.Failure(location: locate(position), message: "cannot read the file \(path)")
        }
        return data
    }

    // MARK: - Headers and credentials

    private mutating func header(_ word: ShellWord, at position: Int) throws(CurlImporter.Failure) {
        let line = try text(word, at: position)
        if line.hasPrefix("@") {
            note(position, "-H \(word): headers from a file are not translated (give each with -H)")
            return
        }
        if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            if value.isEmpty {
                removedHeaders.insert(name.lowercased())
                if !["expect", "content-type"].contains(name.lowercased()) {
                    note(
                        position,
                        "-H '\(name):' (leave out the \(name) header curl adds) cannot be written in a suite: "
                            + "the header is sent")
                }
                return
            }
            if CredentialNames.isCredential(name) || name.lowercased() == "proxy-authorization",
                !value.contains(Self.reference), let literal = word.literal,
                let colon = literal.firstIndex(of: ":")
            {
                // The rule of every importer: a credential is read from the environment, never written as a value
                // (Authorization keeps its scheme).
                let raw = String(literal[literal.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
                addHeader(name, noting(position) { $0.header(name, raw, entry: 0) }, at: position)
                return
            }
            if CredentialNames.isCredential(name), !value.contains(Self.reference) {
                note(
                    position,
                    "the value of \(name) is written into the suite as given (part of it is a shell variable): move it "
                        + "to an environment variable (\(name): \"{{ env.\(HARSecrets.environmentName(name)) }}\")")
            }
            addHeader(name, String(value), at: position)
        } else if line.hasSuffix(";") {
            addHeader(String(line.dropLast()), "", at: position)
        } else {
            note(position, "-H \(word) is not a header (no ':'): curl sends nothing for it")
        }
    }

    private mutating func addHeader(_ name: String, _ value: String, at position: Int) {
        if let index = headers.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
            headers[index].value += ", " + value
            note(
                position,
                "\(name) is given more than once: curl sends a field for each, a suite one field with the values "
                    + "joined by ', '")
            return
        }
        headers.append((name, value, position))
    }

    private mutating func user(_ word: ShellWord, at position: Int) throws(CurlImporter.Failure) {
        var username = ShellWord()
        var password = ShellWord()
        var found = false
        for piece in word.pieces {
            if found {
                password.append(piece)
            } else if case .literal(let bytes) = piece, let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                username.append(.literal(Array(bytes[..<colon])))
                password.append(.literal(Array(bytes[(colon + 1)...])))
                found = true
            } else {
                username.append(piece)
            }
        }
        guard found else {
            if word.literal == nil {
                note(
                    position,
                    "-u \(word): user and password in one variable cannot be split in a suite: not translated (write "
                        + "-u \"$API_USER:$API_PASSWORD\")")
                return
            }
            throw CurlImporter.Failure(
                location: locate(position),
                message: "-u \(word) has no password: curl would ask for it; write -u 'user:$API_PASSWORD'")
        }
        var passwordText = try text(password, at: position)
        if let literal = password.literal, !literal.isEmpty {
            passwordText = noting(position) {
                $0.placeholder(
                    for: literal, base: "API_PASSWORD",
                    source: "the password of -u (--aws-sigv4's secret key)", entry: 0)
            }
        }
        credentials = (try text(username, at: position), passwordText)
        credentialsPosition = position
    }

    private mutating func certificate(_ word: ShellWord, at position: Int) throws(CurlImporter.Failure) {
        var path = try literal(word, at: position, for: "--cert")
        // curl reads `file:password`; `\:` is a colon of the file name.
        var index = path.startIndex
        var cut: String.Index?
        while index < path.endIndex {
            if path[index] == "\\" {
                index = path.index(after: index)
            } else if path[index] == ":" {
                cut = index
                break
            }
            if index < path.endIndex { index = path.index(after: index) }
        }
        if let cut {
            note(position, "the passphrase of --cert is not translated: apitest reads unencrypted PEM keys only")
            path = String(path[..<cut])
        }
        security.clientCertificate = suitePath(of: path.replacingOccurrences(of: "\\:", with: ":"))
    }

    private mutating func pins(_ word: ShellWord, at position: Int) throws(CurlImporter.Failure) {
        let value = try literal(word, at: position, for: "--pinnedpubkey")
        let pins = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !pins.isEmpty, pins.allSatisfy({ $0.hasPrefix("sha256//") }) else {
            note(
                position,
                "--pinnedpubkey \(value): a key file is not translated; give its sha256// hash (apitest pin-check "
                    + "prints it)")
            return
        }
        security.pinning = "publicKey"
        security.pins = pins
    }
}
