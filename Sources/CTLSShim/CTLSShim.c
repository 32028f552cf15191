#include "CTLSShim.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdatomic.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct apitest_certs {
    STACK_OF(X509) *stack;
};

struct apitest_tls_policy {
    int mode;
    int allow_invalid;
    int validate_domain;
    /// `pin_count` SHA-256 digests of 32 bytes, one after the other.
    unsigned char *pins;
    int pin_count;
    /// The pinned certificates, parsed once from the DER they were loaded with.
    apitest_certs pinned;
};

struct apitest_tls_transfer {
    const apitest_tls_policy *policy;
    CURL *easy;
    char *hosts;
    apitest_tls_outcome outcome;
    apitest_certs chain;
    /// Set while the handshake of a host the policy applies to is being verified.
    int applies_now;
};

// MARK: - Certificates

static apitest_certs *certs_new(void) {
    apitest_certs *certs = calloc(1, sizeof(apitest_certs));
    if (certs) certs->stack = sk_X509_new_null();
    return certs;
}

static void set_error(char *error, size_t size, const char *message) {
    if (error && size > 0) {
        strncpy(error, message, size - 1);
        error[size - 1] = 0;
    }
}

/// Parses every PEM certificate of `data`, or else one DER certificate.
static apitest_certs *certs_from_data(const unsigned char *data, size_t length, char *error, size_t error_size) {
    apitest_certs *certs = certs_new();
    if (!certs) return NULL;
    BIO *bio = BIO_new_mem_buf(data, (int)length);
    X509 *cert;
    while ((cert = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) sk_X509_push(certs->stack, cert);
    BIO_free(bio);
    ERR_clear_error();
    if (sk_X509_num(certs->stack) == 0) {
        const unsigned char *cursor = data;
        cert = d2i_X509(NULL, &cursor, (long)length);
        ERR_clear_error();
        if (cert) sk_X509_push(certs->stack, cert);
    }
    if (sk_X509_num(certs->stack) == 0) {
        set_error(error, error_size, "no PEM or DER certificate found");
        apitest_certs_free(certs);
        return NULL;
    }
    return certs;
}

apitest_certs *apitest_certs_load_file(const char *path, char *error, size_t error_size) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        set_error(error, error_size, "cannot open the file");
        return NULL;
    }
    size_t capacity = 16384, length = 0;
    unsigned char *buffer = malloc(capacity);
    size_t count;
    while (buffer && (count = fread(buffer + length, 1, capacity - length, file)) > 0) {
        length += count;
        if (length == capacity) {
            if (capacity > 16 * 1024 * 1024) break;
            capacity *= 2;
            unsigned char *grown = realloc(buffer, capacity);
            if (!grown) {
                free(buffer);
                buffer = NULL;
            }
            buffer = grown;
        }
    }
    fclose(file);
    if (!buffer) {
        set_error(error, error_size, "out of memory");
        return NULL;
    }
    apitest_certs *certs = certs_from_data(buffer, length, error, error_size);
    free(buffer);
    return certs;
}

apitest_certs *apitest_certs_from_ssl(void *ssl) {
    if (!ssl) return NULL;
    STACK_OF(X509) *sent = SSL_get_peer_cert_chain((SSL *)ssl);
    if (!sent || sk_X509_num(sent) == 0) return NULL;
    apitest_certs *certs = certs_new();
    if (!certs) return NULL;
    for (int i = 0; i < sk_X509_num(sent); i++) {
        X509 *cert = sk_X509_value(sent, i);
        X509_up_ref(cert);
        sk_X509_push(certs->stack, cert);
    }
    return certs;
}

int apitest_certs_count(const apitest_certs *certs) { return certs && certs->stack ? sk_X509_num(certs->stack) : 0; }

void apitest_certs_free(apitest_certs *certs) {
    if (!certs) return;
    if (certs->stack) sk_X509_pop_free(certs->stack, X509_free);
    free(certs);
}

static char *name_string(const X509_NAME *name) {
    BIO *bio = BIO_new(BIO_s_mem());
    X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    char *result = malloc((size_t)length + 1);
    if (result) {
        memcpy(result, data, (size_t)length);
        result[length] = 0;
    }
    BIO_free(bio);
    return result;
}

static long long time_value(const ASN1_TIME *time) {
    struct tm parts;
    memset(&parts, 0, sizeof parts);
    if (!ASN1_TIME_to_tm(time, &parts)) return 0;
    return (long long)timegm(&parts);
}

static char *serial_string(X509 *cert) {
    BIGNUM *number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), NULL);
    char *hex = number ? BN_bn2hex(number) : NULL;
    BN_free(number);
    char *result = strdup(hex ? hex : "");
    OPENSSL_free(hex);
    return result;
}

static char *sans_string(X509 *cert) {
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    size_t capacity = 256, length = 0;
    char *result = calloc(1, capacity);
    if (!names || !result) {
        GENERAL_NAMES_free(names);
        return result;
    }
    for (int i = 0; i < sk_GENERAL_NAME_num(names); i++) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
        char item[320];
        item[0] = 0;
        if (name->type == GEN_DNS) {
            snprintf(item, sizeof item, "DNS:%.*s", ASN1_STRING_length(name->d.dNSName),
                     (const char *)ASN1_STRING_get0_data(name->d.dNSName));
        } else if (name->type == GEN_IPADD) {
            const unsigned char *ip = ASN1_STRING_get0_data(name->d.iPAddress);
            int size = ASN1_STRING_length(name->d.iPAddress);
            if (size == 4) {
                snprintf(item, sizeof item, "IP:%d.%d.%d.%d", ip[0], ip[1], ip[2], ip[3]);
            } else if (size == 16) {
                int at = snprintf(item, sizeof item, "IP:");
                for (int j = 0; j < 16; j += 2) {
                    at += snprintf(item + at, sizeof item - at, "%s%x", j ? ":" : "", (ip[j] << 8) | ip[j + 1]);
                }
            }
        } else if (name->type == GEN_EMAIL) {
            snprintf(item, sizeof item, "email:%.*s", ASN1_STRING_length(name->d.rfc822Name),
                     (const char *)ASN1_STRING_get0_data(name->d.rfc822Name));
        } else if (name->type == GEN_URI) {
            snprintf(item, sizeof item, "URI:%.*s", ASN1_STRING_length(name->d.uniformResourceIdentifier),
                     (const char *)ASN1_STRING_get0_data(name->d.uniformResourceIdentifier));
        }
        size_t add = strlen(item);
        if (add == 0) continue;
        if (length + add + 2 > capacity) {
            capacity = (length + add + 2) * 2;
            char *grown = realloc(result, capacity);
            if (!grown) break;
            result = grown;
        }
        if (length) result[length++] = '\n';
        memcpy(result + length, item, add);
        length += add;
        result[length] = 0;
    }
    GENERAL_NAMES_free(names);
    return result;
}

static int spki_sha256(X509 *cert, unsigned char out[32]) {
    unsigned char *der = NULL;
    int length = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(cert), &der);
    if (length <= 0) return 0;
    unsigned int size = 32;
    int ok = EVP_Digest(der, (size_t)length, out, &size, EVP_sha256(), NULL);
    OPENSSL_free(der);
    return ok;
}

int apitest_certs_facts(const apitest_certs *certs, int index, apitest_cert_facts *out) {
    memset(out, 0, sizeof *out);
    if (index < 0 || index >= apitest_certs_count(certs)) return 0;
    X509 *cert = sk_X509_value(certs->stack, index);
    out->subject = name_string(X509_get_subject_name(cert));
    out->issuer = name_string(X509_get_issuer_name(cert));
    out->not_before = time_value(X509_get0_notBefore(cert));
    out->not_after = time_value(X509_get0_notAfter(cert));
    out->serial = serial_string(cert);
    out->sans = sans_string(cert);
    unsigned int size = 32;
    X509_digest(cert, EVP_sha256(), out->sha256, &size);
    spki_sha256(cert, out->spki_sha256);
    unsigned char *der = NULL;
    int length = i2d_X509(cert, &der);
    if (length > 0) {
        out->der = malloc((size_t)length);
        if (out->der) {
            memcpy(out->der, der, (size_t)length);
            out->der_length = (size_t)length;
        }
    }
    OPENSSL_free(der);
    return 1;
}

void apitest_cert_facts_free(apitest_cert_facts *facts) {
    free(facts->subject);
    free(facts->issuer);
    free(facts->serial);
    free(facts->sans);
    free(facts->der);
    memset(facts, 0, sizeof *facts);
}

int apitest_spki_sha256_of_public_key_file(const char *path, unsigned char out[32]) {
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    EVP_PKEY *key = PEM_read_PUBKEY(file, NULL, NULL, NULL);
    if (!key) {
        rewind(file);
        key = d2i_PUBKEY_fp(file, NULL);
    }
    fclose(file);
    ERR_clear_error();
    if (!key) return 0;
    unsigned char *der = NULL;
    int length = i2d_PUBKEY(key, &der);
    EVP_PKEY_free(key);
    if (length <= 0) return 0;
    unsigned int size = 32;
    int ok = EVP_Digest(der, (size_t)length, out, &size, EVP_sha256(), NULL);
    OPENSSL_free(der);
    return ok;
}

// MARK: - Policy

apitest_tls_policy *apitest_tls_policy_new(int mode, int allow_invalid, int validate_domain, const apitest_pin *pins,
                                           int pin_count, const apitest_der *certificates, int certificate_count,
                                           char *error, size_t error_size) {
    apitest_tls_policy *policy = calloc(1, sizeof(apitest_tls_policy));
    if (!policy) {
        set_error(error, error_size, "out of memory");
        return NULL;
    }
    policy->mode = mode;
    policy->allow_invalid = allow_invalid;
    policy->validate_domain = validate_domain;
    policy->pin_count = pin_count > 0 ? pin_count : 0;
    policy->pinned.stack = sk_X509_new_null();
    if (policy->pin_count) policy->pins = malloc((size_t)policy->pin_count * 32);
    if (!policy->pinned.stack || (policy->pin_count && !policy->pins)) {
        set_error(error, error_size, "out of memory");
        apitest_tls_policy_free(policy);
        return NULL;
    }
    for (int i = 0; i < policy->pin_count; i++) {
        if (pins[i].algorithm != APITEST_PIN_SHA256) {
            set_error(error, error_size, "a pin's digest algorithm is not SHA-256");
            apitest_tls_policy_free(policy);
            return NULL;
        }
        memcpy(policy->pins + 32 * i, pins[i].digest, 32);
    }
    for (int i = 0; i < certificate_count; i++) {
        const unsigned char *cursor = certificates[i].bytes;
        X509 *cert = certificates[i].length <= LONG_MAX && cursor
                         ? d2i_X509(NULL, &cursor, (long)certificates[i].length)
                         : NULL;
        ERR_clear_error();
        // Exactly one certificate: bytes left over are not a certificate the caller loaded.
        if (!cert || cursor != certificates[i].bytes + certificates[i].length) {
            X509_free(cert);
            set_error(error, error_size, "a pinned certificate is not one DER certificate");
            apitest_tls_policy_free(policy);
            return NULL;
        }
        if (!sk_X509_push(policy->pinned.stack, cert)) {
            X509_free(cert);
            set_error(error, error_size, "out of memory");
            apitest_tls_policy_free(policy);
            return NULL;
        }
    }
    return policy;
}

void apitest_tls_policy_free(apitest_tls_policy *policy) {
    if (!policy) return;
    free(policy->pins);
    if (policy->pinned.stack) sk_X509_pop_free(policy->pinned.stack, X509_free);
    free(policy);
}

// MARK: - Transfers

apitest_tls_transfer *apitest_tls_transfer_new(const apitest_tls_policy *policy, const char *hosts) {
    apitest_tls_transfer *transfer = calloc(1, sizeof(apitest_tls_transfer));
    if (!transfer) return NULL;
    transfer->policy = policy;
    transfer->hosts = strdup(hosts ? hosts : "");
    transfer->outcome.matched_depth = -1;
    transfer->outcome.matched_pin = -1;
    transfer->outcome.error_depth = -1;
    return transfer;
}

void apitest_tls_transfer_free(apitest_tls_transfer *transfer) {
    if (!transfer) return;
    free(transfer->hosts);
    if (transfer->chain.stack) sk_X509_pop_free(transfer->chain.stack, X509_free);
    free(transfer);
}

void apitest_tls_transfer_outcome(const apitest_tls_transfer *transfer, apitest_tls_outcome *out) {
    *out = transfer->outcome;
}

const apitest_certs *apitest_tls_transfer_chain(const apitest_tls_transfer *transfer) {
    return transfer->chain.stack ? &transfer->chain : NULL;
}

/// Whether `host` is one of the transfer's hosts (a list of lines), ignoring case.
static int host_listed(const char *hosts, const char *host) {
    size_t length = strlen(host);
    const char *line = hosts;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t size = end ? (size_t)(end - line) : strlen(line);
        if (size == length && strncasecmp(line, host, length) == 0) return 1;
        if (!end) break;
        line = end + 1;
    }
    return 0;
}

// MARK: - Connection tags

/// The SSL ex_data index that records which policy checked a connection.
static int policy_tag_index = -1;
static pthread_once_t policy_tag_once = PTHREAD_ONCE_INIT;

static void make_policy_tag_index(void) { policy_tag_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL); }

static int policy_tag(void) {
    pthread_once(&policy_tag_once, make_policy_tag_index);
    return policy_tag_index;
}

/// The transfer whose handshake is being verified on this (the event-loop) thread.
static __thread apitest_tls_transfer *current_transfer;

static int is_domain_error(int error) {
    return error == X509_V_ERR_HOSTNAME_MISMATCH || error == X509_V_ERR_IP_ADDRESS_MISMATCH;
}

/// OpenSSL's per-depth callback: records the first error; lets chain errors pass when invalid certificates are
/// allowed (never in certificate mode, never a host-name mismatch).
static int depth_callback(int ok, X509_STORE_CTX *store) {
    apitest_tls_transfer *transfer = current_transfer;
    if (ok || !transfer) return ok;
    int error = X509_STORE_CTX_get_error(store);
    int depth = X509_STORE_CTX_get_error_depth(store);
    const apitest_tls_policy *policy = transfer->policy;
    if (transfer->applies_now && policy->allow_invalid && policy->mode != APITEST_PIN_CERTIFICATE &&
        !is_domain_error(error)) {
        // Allowed: remember it unless an earlier one was.
        if (transfer->outcome.error_code == 0) {
            transfer->outcome.error_code = error;
            transfer->outcome.error_depth = depth;
        }
        return 1;
    }
    // The error that stops the handshake is the one to report.
    transfer->outcome.error_code = error;
    transfer->outcome.error_depth = depth;
    return 0;
}

/// Whether a certificate of `chain` matches the policy; sets the depth and pin index of the first match.
static int chain_matches(const apitest_tls_policy *policy, STACK_OF(X509) *chain, apitest_tls_outcome *outcome) {
    int count = chain ? sk_X509_num(chain) : 0;
    for (int depth = 0; depth < count; depth++) {
        X509 *cert = sk_X509_value(chain, depth);
        if (policy->mode == APITEST_PIN_PUBLIC_KEY) {
            unsigned char digest[32];
            if (!spki_sha256(cert, digest)) continue;
            for (int i = 0; i < policy->pin_count; i++) {
                if (memcmp(digest, policy->pins + 32 * i, 32) == 0) {
                    outcome->matched_depth = depth;
                    outcome->matched_pin = i;
                    return 1;
                }
            }
        } else if (policy->mode == APITEST_PIN_CERTIFICATE) {
            for (int i = 0; i < sk_X509_num(policy->pinned.stack); i++) {
                if (X509_cmp(cert, sk_X509_value(policy->pinned.stack, i)) == 0) {
                    outcome->matched_depth = depth;
                    outcome->matched_pin = i;
                    return 1;
                }
            }
        }
    }
    return 0;
}

/// Replaces OpenSSL's chain verification for one handshake: verifies, keeps the chain, then checks the pins.
static int verify_chain(X509_STORE_CTX *store, void *argument) {
    apitest_tls_transfer *transfer = argument;
    const apitest_tls_policy *policy = transfer->policy;
    transfer->outcome.handshakes += 1;
    transfer->outcome.verdict = APITEST_TLS_NOT_EVALUATED;
    transfer->outcome.error_code = 0;
    transfer->outcome.error_depth = -1;
    transfer->outcome.matched_depth = -1;
    transfer->outcome.matched_pin = -1;
    transfer->outcome.applied = transfer->applies_now;

    if (transfer->applies_now && policy->mode == APITEST_PIN_CERTIFICATE) {
        // The pinned certificates are the only trust anchors (the SSL_CTX's store, which libcurl fills with the
        // system's or caFile's, is not consulted); any of them (leaf, intermediate, root) may end the chain.
        X509_STORE_CTX_set0_trusted_stack(store, policy->pinned.stack);
        X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(store), X509_V_FLAG_PARTIAL_CHAIN);
    }
    X509_STORE_CTX_set_verify_cb(store, depth_callback);
    current_transfer = transfer;
    int ok = X509_verify_cert(store);
    current_transfer = NULL;

    if (transfer->chain.stack) sk_X509_pop_free(transfer->chain.stack, X509_free);
    transfer->chain.stack = X509_STORE_CTX_get1_chain(store);
    if (!transfer->chain.stack) transfer->chain.stack = sk_X509_new_null();
    if (sk_X509_num(transfer->chain.stack) == 0) {
        // Verification stopped before building a chain: keep what the server sent.
        STACK_OF(X509) *sent = X509_STORE_CTX_get0_untrusted(store);
        X509 *leaf = X509_STORE_CTX_get0_cert(store);
        if (leaf) {
            X509_up_ref(leaf);
            sk_X509_push(transfer->chain.stack, leaf);
        }
        for (int i = 0; sent && i < sk_X509_num(sent); i++) {
            X509 *cert = sk_X509_value(sent, i);
            if (cert == leaf) continue;
            X509_up_ref(cert);
            sk_X509_push(transfer->chain.stack, cert);
        }
    }
    if (ok <= 0) {
        transfer->outcome.verdict = APITEST_TLS_INVALID;
        if (transfer->outcome.error_code == 0) transfer->outcome.error_code = X509_STORE_CTX_get_error(store);
        return 0;
    }
    if (!transfer->applies_now || policy->mode == APITEST_PIN_NONE) {
        transfer->outcome.verdict = APITEST_TLS_TRUSTED;
        return 1;
    }
    if (chain_matches(policy, transfer->chain.stack, &transfer->outcome)) {
        transfer->outcome.verdict = APITEST_TLS_TRUSTED;
        // Remember that this policy checked the connection: see prereq_callback.
        SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
        if (ssl) SSL_set_ex_data(ssl, policy_tag(), (void *)policy);
        return 1;
    }
    transfer->outcome.verdict = APITEST_TLS_PIN_MISMATCH;
    X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
    return 0;
}

/// The host name of the URL `easy` is about to connect to (after redirects); malloc'd, or NULL.
static char *current_host(CURL *easy) {
    char *url = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_EFFECTIVE_URL, &url) != CURLE_OK || !url) return NULL;
    CURLU *parsed = curl_url();
    char *host = NULL;
    if (parsed && curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK) {
        char *part = NULL;
        if (curl_url_get(parsed, CURLUPART_HOST, &part, 0) == CURLUE_OK && part) {
            host = strdup(part);
            curl_free(part);
        }
    }
    curl_url_cleanup(parsed);
    if (host && host[0] == '[') {
        size_t length = strlen(host);
        memmove(host, host + 1, length);
        if (length >= 2 && host[length - 2] == ']') host[length - 2] = 0;
    }
    return host;
}

/// libcurl's CURLOPT_SSL_CTX_FUNCTION: runs for every new TLS connection of the transfer, before the handshake.
static CURLcode ssl_ctx_callback(CURL *easy, void *ssl_ctx, void *argument) {
    SSL_CTX *ctx = ssl_ctx;
    apitest_tls_transfer *transfer = argument;
    const apitest_tls_policy *policy = transfer->policy;
    char *host = current_host(easy);
    transfer->applies_now = host && host_listed(transfer->hosts, host);

    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ctx);
    if (transfer->applies_now) {
        if (policy->validate_domain && host) {
            if (X509_VERIFY_PARAM_set1_ip_asc(param, host) != 1) X509_VERIFY_PARAM_set1_host(param, host, 0);
            ERR_clear_error();
        }
    } else if (host) {
        // A host the policy was not declared for (a redirect): plain, full verification.
        if (X509_VERIFY_PARAM_set1_ip_asc(param, host) != 1) X509_VERIFY_PARAM_set1_host(param, host, 0);
        ERR_clear_error();
    }
    free(host);
    // libcurl sets SSL_VERIFY_NONE when peer verification is off (invalid certificates allowed); the check below
    // must still be able to fail the handshake.
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_cert_verify_callback(ctx, verify_chain, transfer);
    return CURLE_OK;
}

/// libcurl's CURLOPT_PREREQFUNCTION: runs once the connection is ready (new or reused), before the request is
/// sent. A pinned host's request goes only over a connection this policy checked; libcurl's own connection
/// matching ignores the SSL_CTX callback, so this is the last guard against riding on an unchecked connection.
static int prereq_callback(void *argument, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)primary_ip;
    (void)local_ip;
    (void)primary_port;
    (void)local_port;
    apitest_tls_transfer *transfer = argument;
    if (transfer->policy->mode == APITEST_PIN_NONE) return CURL_PREREQFUNC_OK;
    char *host = current_host(transfer->easy);
    int applies = host && host_listed(transfer->hosts, host);
    free(host);
    if (!applies) return CURL_PREREQFUNC_OK;
    SSL *ssl = apitest_easy_ssl(transfer->easy);
    if (!ssl) return CURL_PREREQFUNC_OK; // plain HTTP: nothing to pin
    if (SSL_get_ex_data(ssl, policy_tag()) == transfer->policy) return CURL_PREREQFUNC_OK;
    transfer->outcome.unchecked_connection = 1;
    return CURL_PREREQFUNC_ABORT;
}

CURLcode apitest_tls_transfer_install(CURL *easy, apitest_tls_transfer *transfer) {
    transfer->easy = easy;
    CURLcode code = curl_easy_setopt(easy, CURLOPT_SSL_CTX_FUNCTION, ssl_ctx_callback);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_SSL_CTX_DATA, transfer);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, prereq_callback);
    if (code == CURLE_OK) code = curl_easy_setopt(easy, CURLOPT_PREREQDATA, transfer);
    return code;
}

const char *apitest_x509_error_string(int code) { return X509_verify_cert_error_string(code); }

int apitest_x509_error_kind(int code) {
    switch (code) {
    case X509_V_ERR_CERT_HAS_EXPIRED: return 1;
    case X509_V_ERR_CERT_NOT_YET_VALID: return 2;
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN: return 3;
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE: return 4;
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH: return 5;
    default: return 0;
    }
}

// MARK: - Connections

void *apitest_easy_ssl(CURL *easy) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info) return NULL;
    if (info->backend != CURLSSLBACKEND_OPENSSL) return NULL;
    return info->internals;
}

static int connection_index = -1;
static pthread_once_t connection_index_once = PTHREAD_ONCE_INIT;
static atomic_ulong next_connection_id;

static void make_connection_index(void) { connection_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL); }

unsigned long apitest_ssl_connection_id(void *ssl) {
    if (!ssl) return 0;
    pthread_once(&connection_index_once, make_connection_index);
    unsigned long id = (unsigned long)(uintptr_t)SSL_get_ex_data((SSL *)ssl, connection_index);
    if (id == 0) {
        id = atomic_fetch_add(&next_connection_id, 1) + 1;
        SSL_set_ex_data((SSL *)ssl, connection_index, (void *)(uintptr_t)id);
    }
    return id;
}

// MARK: - Digests

unsigned int apitest_digest(const char *name, const void *data, size_t length, unsigned char *out) {
    const EVP_MD *md = EVP_get_digestbyname(name);
    unsigned int size = 0;
    if (md == NULL || EVP_Digest(data, length, out, &size, md, NULL) != 1) return 0;
    return size;
}

apitest_digest_context *apitest_digest_begin(const char *name) {
    const EVP_MD *md = EVP_get_digestbyname(name);
    if (md == NULL) return NULL;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return NULL;
    if (EVP_DigestInit_ex(context, md, NULL) != 1) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    return (apitest_digest_context *)context;
}

int apitest_digest_update(apitest_digest_context *context, const void *data, size_t length) {
    return EVP_DigestUpdate((EVP_MD_CTX *)context, data, length) == 1;
}

unsigned int apitest_digest_finish(apitest_digest_context *context, unsigned char *out) {
    unsigned int size = 0;
    if (EVP_DigestFinal_ex((EVP_MD_CTX *)context, out, &size) != 1) size = 0;
    return size;
}

void apitest_digest_free(apitest_digest_context *context) {
    if (context != NULL) EVP_MD_CTX_free((EVP_MD_CTX *)context);
}
