import APITestRunner
import CLibraryVersions

/// What `apitest --version` prints: apitest's version (``APITestVersion``, its one owner), then the versions of the
/// C libraries it runs on, read from the libraries themselves when the process runs (not the headers it was built
/// with), so a report from a machine says which libcurl, TLS backend, OpenSSL and libyaml it used.
///
/// ```
/// apitest 0.1.0
/// libcurl 7.88.1 (OpenSSL/3.0.17)
/// OpenSSL 3.0.17 1 Jul 2025
/// libyaml 0.2.5
/// ```
enum VersionText {
    /// The lines `--version` prints, without a final newline.
    static var text: String {
        [apitestLine, curlLine, openSSLLine, yamlLine].joined(separator: "\n")
    }

    // MARK: - Lines

    /// `apitest VERSION`.
    static var apitestLine: String { "apitest \(APITestVersion.string)" }

    /// `libcurl VERSION (TLS BACKEND)`, or without the parenthesis when libcurl has no TLS backend.
    static var curlLine: String {
        let backend = String(cString: apitest_curl_ssl_version())
        let version = "libcurl \(String(cString: apitest_curl_version()))"
        return backend.isEmpty ? version : "\(version) (\(backend))"
    }

    /// OpenSSL's own version text, which starts with `OpenSSL` (`OpenSSL 3.0.17 1 Jul 2025`).
    static var openSSLLine: String { String(cString: apitest_openssl_version()) }

    /// `libyaml VERSION`.
    static var yamlLine: String { "libyaml \(String(cString: apitest_yaml_version()))" }
}
