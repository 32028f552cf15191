#include "CLibraryVersions.h"

#include <curl/curl.h>
#include <openssl/crypto.h>
#include <yaml.h>

const char *apitest_curl_version(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && info->version != NULL ? info->version : "";
}

const char *apitest_curl_ssl_version(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && info->ssl_version != NULL ? info->ssl_version : "";
}

const char *apitest_openssl_version(void) {
    const char *text = OpenSSL_version(OPENSSL_VERSION);
    return text != NULL ? text : "";
}

const char *apitest_yaml_version(void) {
    const char *text = yaml_get_version_string();
    return text != NULL ? text : "";
}
