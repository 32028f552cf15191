// XML parsing and XPath 1.0 through libxml2, which is loaded with dlopen on first use. libxml2 (and the ICU and
// liblzma it links) cost about 1.7 ms of dynamic loading at every start; only XML bodies need them, so a run
// without XML never loads them. libxml2's types stay in the C file: Swift sees opaque pointers.
#ifndef APITEST_CLIBXML2_H
#define APITEST_CLIBXML2_H

/// A parsed document (an xmlDoc), freed with `apitest_xml_free_document`.
typedef struct apitest_xml_document apitest_xml_document;
/// A node of a document: an element, attribute, text... or a namespace declaration (libxml2's xmlNs).
typedef struct apitest_xml_node apitest_xml_node;
/// The result of an XPath evaluation (an xmlXPathObject), freed with `apitest_xpath_free_result`.
typedef struct apitest_xpath_result apitest_xpath_result;

/// The first error libxml2 reported for a parse or an evaluation (warnings are not kept).
typedef struct {
    /// 1 when an error was recorded.
    int found;
    /// libxml2's error code.
    int code;
    /// For XPath errors, `code` minus XML_XPATH_EXPRESSION_OK; libxml2 gives no message for those.
    int xpath_code;
    /// 1-based line and column of a parse error (0 when unknown).
    int line;
    int column;
    /// For XPath errors, the 0-based offset in the expression.
    int position;
    /// libxml2's message, or why libxml2 could not be loaded; NULL when there is none. Malloc'd: release the
    /// problem with `apitest_xml_problem_clear`.
    char *message;
} apitest_xml_problem;

/// Frees the problem's message and zeroes it. A problem passed to the functions below must start zeroed (or
/// cleared); they clear it first.
void apitest_xml_problem_clear(apitest_xml_problem *problem);

/// Loads libxml2 if it is not loaded yet: APITEST_XML_OK, or APITEST_XML_UNAVAILABLE with the reason in
/// `problem.message`. The other functions load it on their own; this is for checking before a run.
int apitest_xml_load(apitest_xml_problem *problem);

enum {
    APITEST_XML_OK = 0,
    /// libxml2 could not be loaded; `problem.message` says why (dlerror).
    APITEST_XML_UNAVAILABLE = 1,
    /// The encoding passed to `apitest_xml_parse` is unknown to libxml2.
    APITEST_XML_UNSUPPORTED_ENCODING = 2,
    /// libxml2 could not allocate a parser or XPath context.
    APITEST_XML_NO_CONTEXT = 3,
    /// The document or expression is invalid; `problem` has the first error when libxml2 reported one.
    APITEST_XML_INVALID = 4,
    /// A namespace prefix could not be registered; `problem.position` is its index.
    APITEST_XML_NAMESPACE_FAILED = 5,
    /// The document's entity references expand past the entity-amplification limit (more than 1,000,000 bytes
    /// and more than 5 times the document); `problem.message` names the entity.
    APITEST_XML_LIMIT = 6
};

/// Node kinds (libxml2's xmlElementType, reduced to what apitest reports).
enum {
    APITEST_XML_NODE_OTHER = 0,
    APITEST_XML_NODE_ELEMENT = 1,
    APITEST_XML_NODE_ATTRIBUTE = 2,
    APITEST_XML_NODE_TEXT = 3,
    APITEST_XML_NODE_CDATA = 4,
    APITEST_XML_NODE_PROCESSING_INSTRUCTION = 7,
    APITEST_XML_NODE_COMMENT = 8,
    APITEST_XML_NODE_DOCUMENT = 9,
    APITEST_XML_NODE_NAMESPACE = 18
};

/// XPath result types.
enum {
    APITEST_XPATH_OTHER = 0,
    APITEST_XPATH_NODE_SET = 1,
    APITEST_XPATH_BOOLEAN = 2,
    APITEST_XPATH_NUMBER = 3,
    APITEST_XPATH_STRING = 4
};

// MARK: - Parsing

/// Parses `length` bytes as an XML document. `encoding` (a Content-Type charset) overrides the document's own
/// when not NULL. Never touches the network and never substitutes entities or loads DTDs (no XML_PARSE_NOENT,
/// no XML_PARSE_DTDLOAD), so XXE payloads read nothing; libxml2 prints nothing; never XML_PARSE_HUGE. A document
/// whose entity references expand past the amplification limit is refused (APITEST_XML_LIMIT). Returns an
/// APITEST_XML_ status.
int apitest_xml_parse(
    const char *bytes, int length, const char *encoding, apitest_xml_document **document,
    apitest_xml_problem *problem);

/// Frees a document from `apitest_xml_parse`.
void apitest_xml_free_document(apitest_xml_document *document);

/// The root element, or NULL.
apitest_xml_node *apitest_xml_root_element(apitest_xml_document *document);

// MARK: - XPath

/// Evaluates an XPath 1.0 expression, with `count` prefix → URI bindings registered first. Returns an
/// APITEST_XML_ status; on success `*result` is set.
int apitest_xpath_evaluate(
    apitest_xml_document *document, const char *expression, const char *const *prefixes,
    const char *const *uris, int count, apitest_xpath_result **result, apitest_xml_problem *problem);

/// Frees an XPath result.
void apitest_xpath_free_result(apitest_xpath_result *result);
/// One of APITEST_XPATH_.
int apitest_xpath_result_type(const apitest_xpath_result *result);
/// libxml2's own type number, for messages about types apitest does not handle.
int apitest_xpath_result_raw_type(const apitest_xpath_result *result);
int apitest_xpath_node_count(const apitest_xpath_result *result);
apitest_xml_node *apitest_xpath_node_at(const apitest_xpath_result *result, int index);
int apitest_xpath_boolean(const apitest_xpath_result *result);
double apitest_xpath_number(const apitest_xpath_result *result);
/// The string value, or NULL; owned by the result.
const char *apitest_xpath_string(const apitest_xpath_result *result);

// MARK: - Nodes

/// One of APITEST_XML_NODE_.
int apitest_xml_node_kind(const apitest_xml_node *node);
/// The local name; for a namespace declaration, its prefix (NULL for the default namespace).
const char *apitest_xml_node_name(const apitest_xml_node *node);
/// The prefix of the node's namespace, or NULL.
const char *apitest_xml_node_namespace_prefix(const apitest_xml_node *node);
/// The URI of the node's namespace (for a namespace declaration, the URI it declares), or NULL.
const char *apitest_xml_node_namespace_uri(const apitest_xml_node *node);
/// The XPath string value of the node; malloc'd, free with `free`. NULL when it could not be computed (memory ran
/// out): never an empty string in its place.
char *apitest_xml_node_string_value(const apitest_xml_node *node);
/// The node serialised as XML; malloc'd, free with `free`. NULL when it cannot be serialised.
char *apitest_xml_node_serialize(apitest_xml_document *document, const apitest_xml_node *node);

/// The first namespace declared on `node` (`xmlns:p="…"`), or NULL; the others follow with
/// `apitest_xml_next_namespace`. Each is a node of kind APITEST_XML_NODE_NAMESPACE.
apitest_xml_node *apitest_xml_namespace_declarations(const apitest_xml_node *node);
apitest_xml_node *apitest_xml_next_namespace(const apitest_xml_node *declaration);

#endif
