#ifndef APITEST_CCURL_SHIM_H
#define APITEST_CCURL_SHIM_H
#include <curl/curl.h>
#endif
