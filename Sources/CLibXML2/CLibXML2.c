// libxml2 behind dlopen: the functions apitest calls are looked up once, on the first parse, and called through
// a table whose entries have the exact types of libxml2's declarations (__typeof__), so a signature mistake is a
// compile error, not a crash.
#include "CLibXML2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !__has_include(<libxml/xmlversion.h>)
#error "libxml2's headers are missing: install Debian's libxml2-dev (make deps)"
#endif
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and encoding.h then wants <unicode/ucnv.h>; apitest uses none of the ICU
// members (only the xmlCharEncodingHandler struct holds them, and only by pointer here).
#undef LIBXML_ICU_ENABLED
#include <libxml/entities.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

// MARK: - Loading

/// The soname of the libxml2 the headers describe: ABI 2 from 2000 to 2.13, 16 from 2.14 on. The struct layouts
/// read here are those of the headers, so the library loaded must be of the same ABI.
#if LIBXML_VERSION >= 21400
#define APITEST_LIBXML2_SONAME "libxml2.so.16"
#else
#define APITEST_LIBXML2_SONAME "libxml2.so.2"
#endif

#define APITEST_XML_FUNCTIONS(X)                                                                                     \
    X(xmlInitParser)                                                                                                 \
    X(xmlNewParserCtxt)                                                                                              \
    X(xmlFreeParserCtxt)                                                                                             \
    X(xmlCtxtReadMemory)                                                                                             \
    X(xmlFreeDoc)                                                                                                    \
    X(xmlDocGetRootElement)                                                                                          \
    X(xmlFindCharEncodingHandler)                                                                                    \
    X(xmlCharEncCloseFunc)                                                                                           \
    X(xmlSetGenericErrorFunc)                                                                                        \
    X(xmlXPathNewContext)                                                                                            \
    X(xmlXPathFreeContext)                                                                                           \
    X(xmlXPathRegisterNs)                                                                                            \
    X(xmlXPathEvalExpression)                                                                                        \
    X(xmlXPathFreeObject)                                                                                            \
    X(xmlNodeGetContent)                                                                                             \
    X(xmlBufferCreate)                                                                                               \
    X(xmlBufferFree)                                                                                                 \
    X(xmlBufferContent)                                                                                              \
    X(xmlNodeDump)

static struct {
#define APITEST_XML_SLOT(name) __typeof__(&name) name;
    APITEST_XML_FUNCTIONS(APITEST_XML_SLOT)
#undef APITEST_XML_SLOT
    /// libxml2's deallocator is a global variable (xmlFree), not a function.
    xmlFreeFunc *free;
} xml;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[400];

static void load(void) {
    void *library = dlopen(APITEST_LIBXML2_SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "libxml2 could not be loaded: %s", reason ? reason : "dlopen failed");
        return;
    }
#define APITEST_XML_LOOKUP(name)                                                                                     \
    xml.name = (__typeof__(xml.name))dlsym(library, #name);                                                          \
    if (xml.name == NULL) {                                                                                          \
        snprintf(load_error, sizeof load_error, "libxml2 (" APITEST_LIBXML2_SONAME ") has no function " #name);     \
        dlclose(library);                                                                                            \
        return;                                                                                                      \
    }
    APITEST_XML_FUNCTIONS(APITEST_XML_LOOKUP)
#undef APITEST_XML_LOOKUP
    xml.free = (xmlFreeFunc *)dlsym(library, "xmlFree");
    if (xml.free == NULL || *xml.free == NULL) {
        snprintf(load_error, sizeof load_error, "libxml2 (" APITEST_LIBXML2_SONAME ") has no xmlFree");
        dlclose(library);
        return;
    }
    xml.xmlInitParser();
    loaded = 1;
}

/// Loads libxml2 once per process; on failure fills `problem` and returns 0.
static int ensure_loaded(apitest_xml_problem *problem) {
    pthread_once(&load_once, load);
    if (loaded) return 1;
    problem->message = strdup(load_error);
    return 0;
}

void apitest_xml_problem_clear(apitest_xml_problem *problem) {
    free(problem->message);
    memset(problem, 0, sizeof *problem);
}

int apitest_xml_load(apitest_xml_problem *problem) {
    apitest_xml_problem_clear(problem);
    return ensure_loaded(problem) ? APITEST_XML_OK : APITEST_XML_UNAVAILABLE;
}

// MARK: - Errors

static void ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Routes libxml2's generic error channel of the calling thread (libxml2 keeps it per thread) to nowhere; the
/// structured errors are captured by `record`.
static void silence_generic_errors(void) { xml.xmlSetGenericErrorFunc(NULL, ignore_generic_error); }

static void record(apitest_xml_problem *problem, const xmlError *error) {
    if (problem == NULL || error == NULL || problem->found || error->level < XML_ERR_ERROR) return;
    problem->found = 1;
    problem->code = error->code;
    problem->xpath_code = error->code - XML_XPATH_EXPRESSION_OK;
    problem->line = error->line;
    problem->column = error->int2;
    problem->position = error->int1;
    if (error->message != NULL) problem->message = strdup(error->message);
}

/// The parser's structured-error handler: its user data is the parser context, whose _private is the problem.
static void parser_error(void *data, xmlErrorPtr error) {
    xmlParserCtxtPtr parser = data;
    if (parser != NULL) record(parser->_private, error);
}

/// The XPath context's error handler: its user data is the problem.
static void xpath_error(void *data, xmlErrorPtr error) { record(data, error); }

// MARK: - Parsing

/// No network, CDATA merged into text, libxml2's own reporting off. Entities stay references: no XML_PARSE_NOENT
/// and no XML_PARSE_DTDLOAD, so an XXE payload cannot read local files. Never XML_PARSE_HUGE: libxml2's limits
/// on text, name and nesting sizes stay on.
static const int parse_options = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;

// MARK: - Entity amplification

// Entity references stay references in the tree, but an XPath string value expands them: one internal entity of
// 50 KB referenced 20,000 times makes a 1 GB string out of a 1 MB document. libxml2 2.11 and later refuse such
// documents while parsing (an entity-amplification limit); 2.9 and 2.10 check only nested entity counts. So every
// document is measured here after parsing, with libxml2 2.11's rule: the text reached through entity references
// (plus a fixed cost per reference, so that empty entities nested deep cannot make the walk itself long) may not
// exceed both 1,000,000 bytes and 5 times the document's size. The walk stops as soon as the limit is passed, so
// it costs at most about the limit, never the expansion.

/// libxml2 2.11's XML_ENT_FIXED_COST, XML_PARSER_ALLOWED_EXPANSION and XML_MAX_AMPLIFICATION_DEFAULT.
enum { entity_fixed_cost = 20, allowed_expansion = 1000000, max_amplification = 5 };

typedef struct {
    /// The bytes of text reached through entity references so far, fixed costs included.
    unsigned long long expanded;
    /// When `expanded` passes it, the document is refused.
    unsigned long long limit;
    /// The entity whose expansion passed the limit (outermost, as referenced from the document).
    const xmlChar *entity;
    /// 1 once the limit is passed.
    int exceeded;
} expansion_budget;

static void measure_nodes(xmlNodePtr node, expansion_budget *budget, const xmlChar *outer, int depth);

/// Adds the text of `node` and everything below it (entity references expanded) when inside an entity.
static void measure_node(xmlNodePtr node, expansion_budget *budget, const xmlChar *outer, int depth) {
    if (budget->exceeded) return;
    switch (node->type) {
    case XML_ENTITY_REF_NODE: {
        xmlEntityPtr entity = (xmlEntityPtr)node->children;
        if (entity == NULL || entity->type != XML_ENTITY_DECL) return;
        const xmlChar *name = outer != NULL ? outer : entity->name;
        budget->expanded += entity_fixed_cost;
        // An entity that refers to itself is a parse error; the depth bound keeps a broken tree finite too.
        if (depth < 64) {
            if (entity->children != NULL) {
                measure_nodes(entity->children, budget, name, depth + 1);
            } else if (entity->content != NULL) {
                budget->expanded += (unsigned long long)entity->length;
            }
        }
        if (!budget->exceeded && budget->expanded > budget->limit) {
            budget->exceeded = 1;
            budget->entity = name;
        }
        return;
    }
    case XML_TEXT_NODE:
    case XML_CDATA_SECTION_NODE:
        if (outer != NULL && node->content != NULL) {
            budget->expanded += (unsigned long long)strlen((const char *)node->content);
            if (budget->expanded > budget->limit) {
                budget->exceeded = 1;
                budget->entity = outer;
            }
        }
        return;
    case XML_ELEMENT_NODE:
        for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
            measure_nodes(attribute->children, budget, outer, depth);
        }
        measure_nodes(node->children, budget, outer, depth);
        return;
    default:
        return;
    }
}

static void measure_nodes(xmlNodePtr node, expansion_budget *budget, const xmlChar *outer, int depth) {
    for (; node != NULL && !budget->exceeded; node = node->next) measure_node(node, budget, outer, depth);
}

/// Fills `problem` and returns 0 when the entity references of `document` expand past the limit for a document
/// of `length` bytes.
static int check_expansion(xmlDocPtr document, int length, apitest_xml_problem *problem) {
    expansion_budget budget = {0};
    unsigned long long amplified = (unsigned long long)length * max_amplification;
    budget.limit = amplified > allowed_expansion ? amplified : allowed_expansion;
    measure_nodes(document->children, &budget, NULL, 0);
    if (!budget.exceeded) return 1;
    char message[600];
    snprintf(
        message, sizeof message,
        "entity '%.200s' expands past the entity-amplification limit: its references make more than %llu bytes of "
        "text (the limit is %d times the %d-byte document, at least %d bytes); refused as an entity-expansion "
        "(\"billion laughs\") document",
        budget.entity ? (const char *)budget.entity : "?", budget.limit, max_amplification, length,
        allowed_expansion);
    problem->found = 1;
    problem->code = XML_ERR_ENTITY_LOOP;
    problem->message = strdup(message);
    return 0;
}

int apitest_xml_parse(
    const char *bytes, int length, const char *encoding, apitest_xml_document **document,
    apitest_xml_problem *problem) {
    apitest_xml_problem_clear(problem);
    *document = NULL;
    if (!ensure_loaded(problem)) return APITEST_XML_UNAVAILABLE;
    silence_generic_errors();
    if (encoding != NULL) {
        // libxml2 ignores an encoding it does not know; a charset the server named must not be ignored.
        xmlCharEncodingHandlerPtr handler = xml.xmlFindCharEncodingHandler(encoding);
        if (handler == NULL) return APITEST_XML_UNSUPPORTED_ENCODING;
        xml.xmlCharEncCloseFunc(handler);
    }
    xmlParserCtxtPtr parser = xml.xmlNewParserCtxt();
    if (parser == NULL) return APITEST_XML_NO_CONTEXT;
    parser->_private = problem;
    parser->sax->serror = (xmlStructuredErrorFunc)parser_error;
    xmlDocPtr parsed = xml.xmlCtxtReadMemory(parser, bytes, length, "response.xml", encoding, parse_options);
    xml.xmlFreeParserCtxt(parser);
    if (problem->found || parsed == NULL) {
        if (parsed != NULL) xml.xmlFreeDoc(parsed);
        return APITEST_XML_INVALID;
    }
    if (!check_expansion(parsed, length, problem)) {
        xml.xmlFreeDoc(parsed);
        return APITEST_XML_LIMIT;
    }
    *document = (apitest_xml_document *)parsed;
    return APITEST_XML_OK;
}

void apitest_xml_free_document(apitest_xml_document *document) {
    if (document != NULL) xml.xmlFreeDoc((xmlDocPtr)document);
}

apitest_xml_node *apitest_xml_root_element(apitest_xml_document *document) {
    return (apitest_xml_node *)xml.xmlDocGetRootElement((xmlDocPtr)document);
}

// MARK: - XPath

int apitest_xpath_evaluate(
    apitest_xml_document *document, const char *expression, const char *const *prefixes,
    const char *const *uris, int count, apitest_xpath_result **result, apitest_xml_problem *problem) {
    apitest_xml_problem_clear(problem);
    *result = NULL;
    if (!ensure_loaded(problem)) return APITEST_XML_UNAVAILABLE;
    silence_generic_errors();
    xmlXPathContextPtr context = xml.xmlXPathNewContext((xmlDocPtr)document);
    if (context == NULL) return APITEST_XML_NO_CONTEXT;
    context->userData = problem;
    context->error = (xmlStructuredErrorFunc)xpath_error;
    for (int index = 0; index < count; index++) {
        if (xml.xmlXPathRegisterNs(context, (const xmlChar *)prefixes[index], (const xmlChar *)uris[index]) != 0) {
            xml.xmlXPathFreeContext(context);
            apitest_xml_problem_clear(problem);
            problem->position = index;
            return APITEST_XML_NAMESPACE_FAILED;
        }
    }
    xmlXPathObjectPtr object = xml.xmlXPathEvalExpression((const xmlChar *)expression, context);
    xml.xmlXPathFreeContext(context);
    // An error reported during the evaluation (an allocation failure, a resource limit) makes the result
    // untrustworthy even when libxml2 returned one: a string cut to "" must not pass `isEmpty`.
    if (object != NULL && problem->found) {
        xml.xmlXPathFreeObject(object);
        return APITEST_XML_INVALID;
    }
    if (object == NULL) return APITEST_XML_INVALID;
    *result = (apitest_xpath_result *)object;
    return APITEST_XML_OK;
}

void apitest_xpath_free_result(apitest_xpath_result *result) {
    if (result != NULL) xml.xmlXPathFreeObject((xmlXPathObjectPtr)result);
}

int apitest_xpath_result_type(const apitest_xpath_result *result) {
    switch (((const xmlXPathObject *)result)->type) {
    case XPATH_NODESET: return APITEST_XPATH_NODE_SET;
    case XPATH_BOOLEAN: return APITEST_XPATH_BOOLEAN;
    case XPATH_NUMBER: return APITEST_XPATH_NUMBER;
    case XPATH_STRING: return APITEST_XPATH_STRING;
    default: return APITEST_XPATH_OTHER;
    }
}

int apitest_xpath_result_raw_type(const apitest_xpath_result *result) {
    return (int)((const xmlXPathObject *)result)->type;
}

int apitest_xpath_node_count(const apitest_xpath_result *result) {
    const xmlNodeSet *set = ((const xmlXPathObject *)result)->nodesetval;
    return (set == NULL || set->nodeTab == NULL) ? 0 : set->nodeNr;
}

apitest_xml_node *apitest_xpath_node_at(const apitest_xpath_result *result, int index) {
    const xmlNodeSet *set = ((const xmlXPathObject *)result)->nodesetval;
    if (set == NULL || set->nodeTab == NULL || index < 0 || index >= set->nodeNr) return NULL;
    return (apitest_xml_node *)set->nodeTab[index];
}

int apitest_xpath_boolean(const apitest_xpath_result *result) {
    return ((const xmlXPathObject *)result)->boolval != 0;
}

double apitest_xpath_number(const apitest_xpath_result *result) {
    return ((const xmlXPathObject *)result)->floatval;
}

const char *apitest_xpath_string(const apitest_xpath_result *result) {
    return (const char *)((const xmlXPathObject *)result)->stringval;
}

// MARK: - Nodes

// XPath namespace nodes are xmlNs records in disguise; xmlNode and xmlNs both keep their type second.

static int is_namespace(const apitest_xml_node *node) {
    return ((const xmlNs *)node)->type == XML_NAMESPACE_DECL;
}

int apitest_xml_node_kind(const apitest_xml_node *node) {
    if (is_namespace(node)) return APITEST_XML_NODE_NAMESPACE;
    switch (((const xmlNode *)node)->type) {
    case XML_ELEMENT_NODE: return APITEST_XML_NODE_ELEMENT;
    case XML_ATTRIBUTE_NODE: return APITEST_XML_NODE_ATTRIBUTE;
    case XML_TEXT_NODE: return APITEST_XML_NODE_TEXT;
    case XML_CDATA_SECTION_NODE: return APITEST_XML_NODE_CDATA;
    case XML_PI_NODE: return APITEST_XML_NODE_PROCESSING_INSTRUCTION;
    case XML_COMMENT_NODE: return APITEST_XML_NODE_COMMENT;
    case XML_DOCUMENT_NODE: return APITEST_XML_NODE_DOCUMENT;
    default: return APITEST_XML_NODE_OTHER;
    }
}

const char *apitest_xml_node_name(const apitest_xml_node *node) {
    if (is_namespace(node)) return (const char *)((const xmlNs *)node)->prefix;
    return (const char *)((const xmlNode *)node)->name;
}

const char *apitest_xml_node_namespace_prefix(const apitest_xml_node *node) {
    if (is_namespace(node)) return NULL;
    const xmlNs *ns = ((const xmlNode *)node)->ns;
    return ns ? (const char *)ns->prefix : NULL;
}

const char *apitest_xml_node_namespace_uri(const apitest_xml_node *node) {
    if (is_namespace(node)) return (const char *)((const xmlNs *)node)->href;
    const xmlNs *ns = ((const xmlNode *)node)->ns;
    return ns ? (const char *)ns->href : NULL;
}

char *apitest_xml_node_string_value(const apitest_xml_node *node) {
    if (!is_namespace(node)) {
        const xmlNode *plain = (const xmlNode *)node;
        int holds_content = plain->type == XML_TEXT_NODE || plain->type == XML_CDATA_SECTION_NODE ||
                            plain->type == XML_COMMENT_NODE || plain->type == XML_PI_NODE;
        if (holds_content && plain->content == NULL) return strdup("");
    }
    // Not xmlXPathCastNodeToString: it turns an allocation failure into "", which checks would take as a value.
    xmlChar *value = xml.xmlNodeGetContent((const xmlNode *)node);
    if (value == NULL) return NULL;
    char *copy = strdup((const char *)value);
    (*xml.free)(value);
    return copy;
}

char *apitest_xml_node_serialize(apitest_xml_document *document, const apitest_xml_node *node) {
    xmlBufferPtr buffer = xml.xmlBufferCreate();
    if (buffer == NULL) return NULL;
    xml.xmlNodeDump(buffer, (xmlDocPtr)document, (xmlNodePtr)node, 0, 0);
    const xmlChar *content = xml.xmlBufferContent(buffer);
    char *copy = content ? strdup((const char *)content) : NULL;
    xml.xmlBufferFree(buffer);
    return copy;
}

apitest_xml_node *apitest_xml_namespace_declarations(const apitest_xml_node *node) {
    if (node == NULL || is_namespace(node)) return NULL;
    return (apitest_xml_node *)((const xmlNode *)node)->nsDef;
}

apitest_xml_node *apitest_xml_next_namespace(const apitest_xml_node *declaration) {
    return (apitest_xml_node *)((const xmlNs *)declaration)->next;
}
