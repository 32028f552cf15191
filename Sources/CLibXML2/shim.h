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

/// Discards a message of libxml2's "generic" error channel, which otherwise prints to stderr.
static void apitest_xml_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Routes libxml2's generic error channel of the calling thread (libxml2 keeps it per thread) to nowhere; the
/// structured errors that apitest reports are captured separately. Called before every parse and evaluation.
static inline void apitest_xml_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, apitest_xml_ignore_generic_error);
}
#endif
