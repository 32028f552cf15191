#ifndef APITEST_COPENSSL_SHIM_H
#define APITEST_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#endif
