// Certificate pinning in the TLS handshake (libcurl's CURLOPT_SSL_CTX_FUNCTION + an OpenSSL verify callback)
// and certificate facts read with OpenSSL. OpenSSL types stay opaque to Swift.
#ifndef APITEST_CTLSSHIM_H
#define APITEST_CTLSSHIM_H

#include <curl/curl.h>
#include <stddef.h>

/// An owned list of certificates (X509), leaf first when it is a chain.
typedef struct apitest_certs apitest_certs;
/// A compiled security policy: mode, pins, pinned certificates. Immutable once made.
typedef struct apitest_tls_policy apitest_tls_policy;
/// The per-transfer state of the handshake check: its policy, the hosts it applies to, and the outcome.
typedef struct apitest_tls_transfer apitest_tls_transfer;

enum {
    APITEST_PIN_NONE = 0,
    APITEST_PIN_PUBLIC_KEY = 1,
    APITEST_PIN_CERTIFICATE = 2
};

/// The digest algorithm of a public-key pin.
enum {
    APITEST_PIN_SHA256 = 1
};

/// A public-key pin as typed values: the digest of a DER SubjectPublicKeyInfo and the algorithm that made it.
typedef struct {
    int algorithm;
    /// The digest's bytes (32 for SHA-256).
    unsigned char digest[32];
} apitest_pin;

/// One DER-encoded certificate in the caller's memory (read during the call only).
typedef struct {
    const unsigned char *bytes;
    size_t length;
} apitest_der;

enum {
    APITEST_TLS_NOT_EVALUATED = 0,
    /// The chain was accepted (and, when pinning, a pin matched).
    APITEST_TLS_TRUSTED = 1,
    /// The chain was valid (or invalid certificates were allowed) but no pin matched.
    APITEST_TLS_PIN_MISMATCH = 2,
    /// The chain failed verification (error code in the outcome).
    APITEST_TLS_INVALID = 3
};

/// The facts of one certificate. Strings are malloc'd; free with `apitest_cert_facts_free`.
typedef struct {
    char *subject;
    char *issuer;
    long long not_before;
    long long not_after;
    char *serial;
    /// Subject alternative names, one per line (`DNS:localhost`, `IP:127.0.0.1`).
    char *sans;
    unsigned char sha256[32];
    unsigned char spki_sha256[32];
    /// The DER encoding, malloc'd, and its length.
    unsigned char *der;
    size_t der_length;
} apitest_cert_facts;

typedef struct {
    int verdict;
    /// Whether the policy applied to this connection's host (redirects to other hosts get plain verification).
    int applied;
    /// The first verification error (X509_V_ERR_*), 0 for none; and its depth.
    int error_code;
    int error_depth;
    /// Where a pin matched: the depth in the verified chain and the pin's index (pins first, then certificates).
    int matched_depth;
    int matched_pin;
    /// Handshakes checked by this transfer (redirects may add some).
    int handshakes;
    /// Set when the request was about to go over a connection this policy had not checked, and was stopped.
    int unchecked_connection;
} apitest_tls_outcome;

// MARK: - Certificates

/// Loads every certificate of a PEM file (several allowed) or one DER certificate; NULL with a message on failure.
apitest_certs *apitest_certs_load_file(const char *path, char *error, size_t error_size);
/// The certificates the server sent on the connection of `ssl` (an `SSL *`), leaf first; NULL when none.
apitest_certs *apitest_certs_from_ssl(void *ssl);
int apitest_certs_count(const apitest_certs *certs);
void apitest_certs_free(apitest_certs *certs);
int apitest_certs_facts(const apitest_certs *certs, int index, apitest_cert_facts *out);
void apitest_cert_facts_free(apitest_cert_facts *facts);

/// The base64 SHA-256 of a public key's DER SubjectPublicKeyInfo read from a PEM or DER public key file.
int apitest_spki_sha256_of_public_key_file(const char *path, unsigned char out[32]);

// MARK: - Policy and transfers

/// A policy of `pin_count` typed pins and `certificate_count` DER certificates, each parsed once here (the policy
/// keeps its own copies; either list may be NULL when its count is 0). NULL with a message in `error` when a pin's
/// algorithm is not one apitest knows, a certificate is not exactly one DER certificate, or memory ran out.
apitest_tls_policy *apitest_tls_policy_new(int mode, int allow_invalid, int validate_domain, const apitest_pin *pins,
                                           int pin_count, const apitest_der *certificates, int certificate_count,
                                           char *error, size_t error_size);
void apitest_tls_policy_free(apitest_tls_policy *policy);

/// A transfer's state; `hosts` lists the host names the policy applies to, one per line, lower-case.
apitest_tls_transfer *apitest_tls_transfer_new(const apitest_tls_policy *policy, const char *hosts);
void apitest_tls_transfer_free(apitest_tls_transfer *transfer);
/// Installs the handshake check on `easy` (CURLOPT_SSL_CTX_FUNCTION) and the guard that the request goes only
/// over a connection checked under the same policy (CURLOPT_PREREQFUNCTION).
CURLcode apitest_tls_transfer_install(CURL *easy, apitest_tls_transfer *transfer);
void apitest_tls_transfer_outcome(const apitest_tls_transfer *transfer, apitest_tls_outcome *out);
/// The chain of the last handshake checked, as verified (leaf first, the trust anchor last when found); may be NULL.
const apitest_certs *apitest_tls_transfer_chain(const apitest_tls_transfer *transfer);

/// OpenSSL's text for an X509_V_ERR_* code.
const char *apitest_x509_error_string(int code);
/// The X509_V_ERR_* codes apitest names.
int apitest_x509_error_kind(int code);

// MARK: - Connections

/// The `SSL *` of the connection `easy` is using now (call during the transfer); NULL for plain HTTP.
void *apitest_easy_ssl(CURL *easy);
/// A number that identifies the TLS connection of `ssl` for the process's life (assigned on first call).
unsigned long apitest_ssl_connection_id(void *ssl);

/// The digest `name` ("sha256", "md5", ...) of `length` bytes into `out` (at least 64 bytes); returns the digest's
/// length, or 0 when OpenSSL does not know the name.
unsigned int apitest_digest(const char *name, const void *data, size_t length, unsigned char *out);

/// A digest computed piece by piece (an EVP_MD_CTX), for bodies hashed as they stream.
typedef struct apitest_digest_context apitest_digest_context;
/// Starts the digest `name` ("sha256", "md5"); NULL when OpenSSL does not know it or memory ran out.
apitest_digest_context *apitest_digest_begin(const char *name);
/// Adds `length` bytes; returns 1 on success.
int apitest_digest_update(apitest_digest_context *context, const void *data, size_t length);
/// Writes the digest into `out` (at least 64 bytes) and returns its size, 0 on failure. Call once.
unsigned int apitest_digest_finish(apitest_digest_context *context, unsigned char *out);
/// Releases the context.
void apitest_digest_free(apitest_digest_context *context);

#endif
