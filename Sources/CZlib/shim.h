#ifndef APITEST_CZLIB_SHIM_H
#define APITEST_CZLIB_SHIM_H
#include <zlib.h>
#endif
