import APITestSupport
import CCurlShim
import Foundation

// MARK: - Transport and authentication options

extension CurlMultiLoop {
    /// `CURLAUTH_DIGEST` (a macro with a cast, which Swift does not import).
    static let curlAuthDigest = 1 << 1
    /// `CURLAUTH_NTLM`.
    static let curlAuthNTLM = 1 << 3

    /// libcurl's value for the request's allowed HTTP versions.
    static func curlHTTPVersion(_ version: TransportOptions.HTTPVersion?) -> Int {
        switch version {
        case nil, .http2: Int(CURL_HTTP_VERSION_2TLS)
        case .http11: Int(CURL_HTTP_VERSION_1_1)
        case .http2PriorKnowledge: Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
    }

    /// Sets the connect-to entries, the unix socket and the proxy of `delegate`'s request on `easy`.
    func configureTransport(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate) {
        let transport = delegate.request.transport
        if !transport.connectTo.isEmpty {
            var list: UnsafeMutablePointer<curl_slist>?
            for entry in transport.connectTo { list = curl_slist_append(list, entry) }
            delegate.connectToList = list
            delegate.check("CURLOPT_CONNECT_TO", apitest_easy_setopt_slist(easy, CURLOPT_CONNECT_TO, list))
        }
        if let path = transport.unixSocketPath {
            delegate.check("CURLOPT_UNIX_SOCKET_PATH", apitest_easy_setopt_string(easy, CURLOPT_UNIX_SOCKET_PATH, path))
        }
        if let proxy = transport.proxy {
            delegate.check("CURLOPT_PROXY", apitest_easy_setopt_string(easy, CURLOPT_PROXY, proxy))
        }
        if transport.httpVersion == .http2PriorKnowledge {
            // Through an HTTP proxy (the request's, or one the environment names), HTTP/2 with prior knowledge goes
            // through a CONNECT tunnel, as gRPC clients do: without one libcurl speaks HTTP/1.1 to the proxy
            // whatever the request asked for. Without a proxy libcurl ignores the option.
            delegate.check("CURLOPT_HTTPPROXYTUNNEL", apitest_easy_setopt_long(easy, CURLOPT_HTTPPROXYTUNNEL, 1))
        }
        if let noProxy = transport.noProxy {
            delegate.check("CURLOPT_NOPROXY", apitest_easy_setopt_string(easy, CURLOPT_NOPROXY, noProxy))
        }
    }

    /// Sets the authentication scheme of `delegate`'s request on `easy`: libcurl answers Digest and NTLM challenges,
    /// signs with AWS Signature Version 4, or reads credentials from a netrc file.
    func configureAuthentication(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate) {
        guard let authentication = delegate.request.authentication else { return }
        switch authentication {
        case .digest(let username, let password):
            setCredentials(easy, username, password, scheme: Self.curlAuthDigest, for: delegate)
        case .ntlm(let username, let password):
            setCredentials(easy, username, password, scheme: Self.curlAuthNTLM, for: delegate)
        case .awsSigV4(let signature):
            delegate.check(
                "CURLOPT_AWS_SIGV4", apitest_easy_setopt_string(easy, CURLOPT_AWS_SIGV4, signature.curlParameter))
            delegate.check("CURLOPT_USERNAME", apitest_easy_setopt_string(easy, CURLOPT_USERNAME, signature.accessKey))
            delegate.check("CURLOPT_PASSWORD", apitest_easy_setopt_string(easy, CURLOPT_PASSWORD, signature.secretKey))
        case .netrc(let file):
            delegate.check(
                "CURLOPT_NETRC", apitest_easy_setopt_long(easy, CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue)))
            if let file {
                delegate.check("CURLOPT_NETRC_FILE", apitest_easy_setopt_string(easy, CURLOPT_NETRC_FILE, file))
            }
        }
    }

    /// User name, password and the one scheme libcurl may use with them.
    private func setCredentials(
        _ easy: UnsafeMutableRawPointer, _ username: String, _ password: String, scheme: Int, for delegate: TaskDelegate
    ) {
        delegate.check("CURLOPT_HTTPAUTH", apitest_easy_setopt_long(easy, CURLOPT_HTTPAUTH, scheme))
        delegate.check("CURLOPT_USERNAME", apitest_easy_setopt_string(easy, CURLOPT_USERNAME, username))
        delegate.check("CURLOPT_PASSWORD", apitest_easy_setopt_string(easy, CURLOPT_PASSWORD, password))
    }
}
