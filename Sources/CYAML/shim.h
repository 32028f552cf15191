#ifndef APITEST_CYAML_SHIM_H
#define APITEST_CYAML_SHIM_H
// libyaml 0.2 from Debian's libyaml-dev (pkg-config yaml-0.1): the event parser the suite loader composes.
#include <yaml.h>
#endif
