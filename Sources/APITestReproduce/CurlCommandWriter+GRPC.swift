package import APITestHTTP
import APITestSecrets
import APITestSecurity
import APITestSupport
import Foundation

// MARK: - grpcurl

extension CurlCommandWriter {
    /// Writes a `grpc:` step as a `grpcurl` command (github.com/fullstorydev/grpcurl) in place of curl's words:
    /// `grpcurl -plaintext|-cacert ... -H 'key: value' -d '{json}' -proto api.proto -import-path ... host:port
    /// package.Service/Method`. `request` is the step's connection as built with the first stand-ins (`other` with
    /// the second): its URL, the metadata among its header fields (`metadataKeys`), its deadline and TLS settings.
    ///
    /// Every value goes through the stand-ins as in a curl command: a secret becomes its `"${NAME}"` reference, a
    /// credential written in the suite a variable of its own, and every word is quoted for the shell.
    package mutating func writeGRPC(
        _ request: HTTPRequest, _ other: HTTPRequest, call: GRPCurlCall, metadataKeys: [String], timeout: Duration,
        connectTimeout: Duration
    ) {
        words = ["grpcurl"]
        let isTLS = request.url.lowercased().hasPrefix("https:")
        if isTLS { writeGRPCSecurity(request) } else { words.append("-plaintext") }
        if let authority = call.authority {
            let parts = field(
                Array(authority.utf8), Array((call.otherAuthority ?? authority).utf8), sent: nil, "authority")
            option("-authority", word(parts))
        }
        let keys = Set(metadataKeys.map { $0.lowercased() })
        for (index, header) in request.headers.enumerated() where keys.contains(header.name.lowercased()) {
            let otherValue = index < other.headers.count ? other.headers[index].value : header.value
            var parts = field(Array(header.value.utf8), Array(otherValue.utf8), sent: nil, "metadata \(header.name)")
            if SecretMasker.sensitiveHeaders.contains(header.name.lowercased()) {
                parts = maskCredentials(in: parts, header: header.name)
            }
            option("-H", word(parts).prepending("\(header.name.lowercased()): "))
        }
        option("-max-time", ShellWord(Self.seconds(request.timeout ?? timeout)))
        option("-connect-timeout", ShellWord(Self.seconds(request.connectTimeout ?? connectTimeout)))
        if let size = call.maxMessageSize { option("-max-msg-sz", ShellWord(String(size))) }
        writeProtoSource(call)
        writeMessages(call)
        writeGRPCTransportNotes(request)
        words.append(word(grpcTarget(request.url, other.url)))
        var method = call.method
        if method.hasPrefix("/") { method.removeFirst() }
        words.append(ShellWord(method))
    }

    // MARK: - Parts

    /// `-d` with the messages: one JSON object, or for a stream each object after the other (grpcurl reads them in
    /// turn); none for a single call without a message (grpcurl sends an empty one), `''` for an empty stream.
    private mutating func writeMessages(_ call: GRPCurlCall) {
        guard !call.messages.isEmpty || call.isMessageList else { return }
        var parts: [Part] = []
        for (index, message) in call.messages.enumerated() {
            if index > 0 { parts.append(.literal(Array(" ".utf8))) }
            let other = index < call.otherMessages.count ? call.otherMessages[index] : message
            let what = call.messages.count > 1 ? "request message \(index + 1)" : "request message"
            parts += field(Array(message.utf8), Array(other.utf8), sent: nil, what)
        }
        option("-d", word(parts))
    }

    /// `-import-path` and `-proto` for the suite's `.proto` files; nothing when the schema comes from reflection
    /// (grpcurl's default). A file is named relative to the import path it lies in, as grpcurl looks it up.
    private mutating func writeProtoSource(_ call: GRPCurlCall) {
        guard !call.protoFiles.isEmpty else { return }
        var importPaths = call.importPaths
        var files: [String] = []
        for file in call.protoFiles {
            let absolute =
                file.hasPrefix("/") ? file : (call.directory as NSString).appendingPathComponent(file)
            let standard = (absolute as NSString).standardizingPath
            if let path = importPaths.first(where: { standard.hasPrefix(Self.folder($0)) }) {
                files.append(String(standard.dropFirst(Self.folder(path).count)))
            } else {
                // Not under an import path (or none given): the suite's folder is one, as protoc takes it.
                if !importPaths.contains(call.directory) { importPaths.append(call.directory) }
                files.append(file)
            }
        }
        for path in importPaths { option("-import-path", ShellWord(path)) }
        for file in files { option("-proto", ShellWord(file)) }
    }

    /// `path` with one trailing `/`, standardized.
    private static func folder(_ path: String) -> String {
        let standard = (path as NSString).standardizingPath
        return standard.hasSuffix("/") ? standard : standard + "/"
    }

    /// `host:port` of the call's URL (443 for https, 80 for http when it names none); a note when the URL has a
    /// path, which grpcurl cannot send before the method.
    private mutating func grpcTarget(_ url: String, _ otherURL: String) -> [Part] {
        func target(_ url: String) -> (String, Bool) {
            guard let components = URLComponents(string: url), let host = components.host else { return (url, false) }
            let port = components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 80)
            let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            let path = components.percentEncodedPath
            return ("\(shownHost):\(port)", !path.isEmpty && path != "/")
        }
        let (first, hasPath) = target(url)
        let (second, _) = target(otherURL)
        if hasPath {
            note("grpcurl sends the method at the root of the server: the URL's path (a proxy's prefix) is left out")
        }
        return field(Array(first.utf8), Array(second.utf8), sent: nil, "target")
    }

    /// The TLS settings as grpcurl's options: `-insecure`, `-cacert`, `-cert`, `-key`; a note for pins, which
    /// grpcurl cannot check.
    private mutating func writeGRPCSecurity(_ request: HTTPRequest) {
        guard let policy = request.security else { return }
        let settings = policy.settings
        if settings.allowInvalidCertificates { words.append("-insecure") }
        if !settings.validatesDomainName, !settings.allowInvalidCertificates {
            note("grpcurl has no option to skip only the host-name check (validatesDomainName: false)")
        }
        switch settings.pinning {
        case .certificate:
            if settings.certificates.count == 1, let file = settings.certificates.first {
                option("-cacert", ShellWord(file))
                note("apitest trusts the pinned certificate alone; -cacert makes it grpcurl's only trust anchor")
            } else {
                note("apitest trusts only the pinned certificates, which grpcurl cannot take as several files")
            }
        case .none, .publicKey:
            if let caFile = settings.caFile { option("-cacert", ShellWord(caFile)) }
        }
        if let certificate = settings.clientCertificate { option("-cert", ShellWord(certificate)) }
        if let key = settings.clientKey { option("-key", ShellWord(key)) }
        if settings.pinning == .publicKey, !policy.effectivePins.isEmpty {
            note("grpcurl cannot check public-key pins: this command trusts any certificate the CA vouches for")
        }
    }

    /// Notes for the transport settings grpcurl has no option for.
    private mutating func writeGRPCTransportNotes(_ request: HTTPRequest) {
        if !request.resolve.isEmpty || !request.transport.connectTo.isEmpty {
            note("grpcurl has no --resolve or --connect-to: it connects to the host the target names")
        }
        if request.transport.unixSocketPath != nil {
            note("grpcurl reaches a unix socket as unix:///path with -unix, which this command does not write")
        }
        if request.transport.proxy != nil {
            note("grpcurl takes a proxy from the https_proxy environment variable, not an option")
        }
    }
}
