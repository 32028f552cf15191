#ifndef APITEST_CLIBXML2_SHIM_H
#define APITEST_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and encoding.h then includes <unicode/ucnv.h>, whose types clash with
// Foundation's own ICU module in the same Swift module. apitest never touches the ICU members (only the
// xmlCharEncodingHandler struct holds them, and only by pointer elsewhere), so the ICU part is left out.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/// xmlFree is a global function pointer (a macro in some builds); this wrapper reaches it from Swift either way.
static inline void apitest_xml_free(void *pointer) { xmlFree(pointer); }
#endif
