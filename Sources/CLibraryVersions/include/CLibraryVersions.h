// The versions of the C libraries apitest runs on, read from the libraries themselves at run time (not from the
// headers it was built with): what `apitest --version` reports.
#ifndef APITEST_CLIBRARYVERSIONS_H
#define APITEST_CLIBRARYVERSIONS_H

/// libcurl's version (curl_version_info's `version`), e.g. "7.88.1".
const char *apitest_curl_version(void);
/// The TLS backend libcurl uses (curl_version_info's `ssl_version`), e.g. "OpenSSL/3.0.17"; "" when it has none.
const char *apitest_curl_ssl_version(void);
/// OpenSSL's version text (OpenSSL_version(OPENSSL_VERSION)), e.g. "OpenSSL 3.0.17 1 Jul 2025".
const char *apitest_openssl_version(void);
/// libyaml's version (yaml_get_version_string), e.g. "0.2.5".
const char *apitest_yaml_version(void);

#endif
