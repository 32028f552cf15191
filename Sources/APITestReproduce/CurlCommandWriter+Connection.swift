import APITestHTTP
import APITestSupport

// MARK: - Authentication and transport

extension CurlCommandWriter {
    /// Writes the scheme libcurl runs for the request (`auth:` digest, ntlm, awsSigV4, netrc) as curl's options;
    /// credentials go through the stand-ins like every field, so a secret becomes its `"${NAME}"` reference.
    mutating func writeAuthentication(_ request: HTTPRequest, _ other: HTTPRequest) {
        switch (request.authentication, other.authentication) {
        case (.digest(let user, let password), .digest(let otherUser, let otherPassword)):
            words.append("--digest")
            credentials(user, password, otherUser, otherPassword)
        case (.ntlm(let user, let password), .ntlm(let otherUser, let otherPassword)):
            words.append("--ntlm")
            credentials(user, password, otherUser, otherPassword)
        case (.awsSigV4(let signature), .awsSigV4(let otherSignature)):
            let provider = field(
                Array("aws:amz:\(signature.region):\(signature.service)".utf8),
                Array("aws:amz:\(otherSignature.region):\(otherSignature.service)".utf8), sent: nil, "--aws-sigv4")
            words.append("--aws-sigv4")
            words.append(word(provider))
            credentials(signature.accessKey, signature.secretKey, otherSignature.accessKey, otherSignature.secretKey)
            // The signed headers the HTTP layer adds (a session token, S3's payload hash), as it adds them.
            for (line, otherLine) in zip(request.authenticationHeaderLines, other.authenticationHeaderLines) {
                let header = field(Array(line.utf8), Array(otherLine.utf8), sent: nil, "signed header")
                words.append("-H")
                words.append(word(header))
            }
        case (.netrc(let file), _):
            // apitest reads the file when it is there (CURL_NETRC_OPTIONAL), which is curl's --netrc-optional.
            words.append("--netrc-optional")
            if let file { option("--netrc-file", ShellWord(file)) }
        default:
            break
        }
    }

    /// `-u user:password`, each through the stand-ins.
    private mutating func credentials(_ user: String, _ password: String, _ otherUser: String, _ otherPassword: String)
    {
        let parts = field(
            Array("\(user):\(password)".utf8), Array("\(otherUser):\(otherPassword)".utf8), sent: nil, "credentials")
        option("-u", word(parts))
    }

    /// Writes the transport settings (`resolve`, `connectTo`, `unixSocket`, `httpVersion`, `proxy`, `noProxy`, from
    /// the suite or the run's flags) as curl's options of the same meaning.
    /// Each goes through the stand-ins like every field: a value made from the environment (`--noproxy "{{
    /// env.NO_PROXY }}"`) becomes its `"${NAME}"` reference, not the stand-in it was rendered with.
    mutating func writeTransport(_ request: HTTPRequest, _ other: HTTPRequest) {
        for (entry, otherEntry) in zip(request.resolve, other.resolve) {
            setting("--resolve", entry, otherEntry)
        }
        for (entry, otherEntry) in zip(request.transport.connectTo, other.transport.connectTo) {
            setting("--connect-to", entry, otherEntry)
        }
        if let path = request.transport.unixSocketPath {
            setting("--unix-socket", path, other.transport.unixSocketPath ?? path)
        }
        switch request.transport.httpVersion {
        case .http11: words.append("--http1.1")
        case .http2PriorKnowledge: words.append("--http2-prior-knowledge")
        case .http2: words.append("--http2")
        case nil: break
        }
        if let proxy = request.transport.proxy { setting("--proxy", proxy, other.transport.proxy ?? proxy) }
        if let noProxy = request.transport.noProxy {
            setting("--noproxy", noProxy, other.transport.noProxy ?? noProxy)
        }
    }

    /// `name value`, the value through the stand-ins (`other` is the same value rendered with the other ones).
    private mutating func setting(_ name: String, _ value: String, _ other: String) {
        option(name, word(field(Array(value.utf8), Array(other.utf8), sent: nil, String(name.dropFirst(2)))))
    }
}
