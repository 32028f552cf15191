#!/usr/bin/env python3
"""Writes schemas/apitest.schema.json, the JSON Schema (draft 2020-12) of the suite format, to standard output.

Usage: scripts/generate-suite-schema.py > schemas/apitest.schema.json
       scripts/generate-suite-schema.py --included > schemas/apitest-include.schema.json

The second schema is for the files suites include: shared settings, or shared steps.

The schema mirrors what the loader (Sources/APITestSuite/*Parser.swift) accepts: its key lists, queries,
filters, predicates and the rules between keys. Edit this file, not the JSON, and regenerate; a test checks that
the committed schema is this script's output, that every loader key is in it, and that it agrees with the loader on
the examples, the end-to-end cases, an invalid corpus and fuzzed suites.
"""

import collections
import json

TOKEN = r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"
VARNAME = r"^(?!env\.)[A-Za-z_][A-Za-z0-9_.-]*$"
PREDICATES = ["equals","notEquals","contains","notContains","startsWith","endsWith","matches","exists","notExists",
  "isEmpty","greaterThan","greaterThanOrEqual","lessThan","lessThanOrEqual","between","oneOf","type"]
PLAIN_FILTERS = ["count","first","last","toInt","toFloat","toString","lowercase","uppercase","trim","base64Decode",
  "base64Encode","urlDecode","urlEncode","daysAfterNow","daysBeforeNow"]
# Expression functions of one argument usable as filters (docs/suite-format.md#expressions-and-functions).
FUNCTION_FILTERS = ["hex","jsonEncode","length","lower","md5","sha1","sha256","upper"]
ARG_FILTERS = ["nth","split","replace","regex","jsonpath","xpath"]
TYPES = ["string","integer","number","boolean","null","array","object","date"]
PLAIN_QUERIES = ["status","body","duration","bodySize","sha256","md5","url","redirects"]
ARG_QUERIES = ["header","cookie","jsonpath","xpath","regex","certificate","image"]
COOKIE_ATTRS = ["Value","Expires","Max-Age","Domain","Path","Secure","HttpOnly","SameSite"]
CERT_FIELDS = ["subject","issuer","notBefore","notAfter","serialNumber","subjectAlternativeNames"]
IMAGE_FIELDS = ["format","width","height"]

def ref(name): return {"$ref": f"#/$defs/{name}"}
def d(text, **schema):
    out = {"description": text}; out.update(schema); return out

def folded(name):
    # CookieAttribute(named:) folds case and ignores hyphens.
    out = "-*"
    for c in name.lower().replace("-", ""):
        out += f"[{c}{c.upper()}]-*" if c.isalpha() else c + "-*"
    return out

attr_pattern = "(?:" + "|".join(folded(a) for a in COOKIE_ATTRS) + ")"

defs = collections.OrderedDict()
defs["text"] = d("A text value. Numbers and booleans are taken as written (`8080` is the text \"8080\"); null is an error.",
    type=["string","number","boolean"])
defs["template"] = d("Text that may hold placeholders: `{{ name }}` (a variable, `--var` value or earlier capture), "
    "`{{ env.NAME }}` (an environment variable, secret), built-ins such as `{{ random.uuid }}` and `{{ now.iso }}`.",
    type=["string","number","boolean"])
defs["filePath"] = d("A file path relative to the suite file's folder; the file must exist and be a readable regular file when the suite loads.",
    type=["string","number"], minLength=1)
defs["duration"] = d("A duration greater than zero: `250ms`, `10s`, `1.5s`, `2m`, `1h`, or a bare number of seconds (`10`, `0.5`).",
    anyOf=[{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1e9},
           {"type":"string","pattern": r"^\s*(?![0.]*\s*(?:ms|s|m|h)?\s*$)(?:[0-9]+\.?[0-9]*|\.[0-9]+)\s*(?:ms|s|m|h)?\s*$"}])
defs["headers"] = d("Header names (HTTP tokens) and their values, templated; a value cannot contain a line break.",
    type=["object","null"], propertyNames={"pattern": TOKEN},
    additionalProperties={"anyOf":[{"type":["number","boolean"]},{"type":"string","pattern":r"^[^\r\n]*$"}]})
defs["followRedirects"] = d("Follow 3xx redirects (default true).", type="boolean")
defs["compressed"] = d("Ask for a compressed response (Accept-Encoding with every encoding libcurl decodes) and decode it "
    "(default true); false sends no Accept-Encoding, as curl does without --compressed.", type="boolean")
defs["maxRedirects"] = d("How many redirects to follow at most.", type="integer", minimum=0, maximum=1000)
defs["variables"] = d("Named values (any YAML value, strings templated); a variable may use the variables before it, `--var` values and `env.*`. Names match [A-Za-z_][A-Za-z0-9_.-]* and cannot start with `env.`.",
    type=["object","null"], propertyNames={"pattern": VARNAME})
creds = lambda what: d(what, type="object", additionalProperties=False, required=["password"],
    properties={"user": ref("template"), "username": ref("template"), "password": ref("template")},
    oneOf=[{"required":["user"]},{"required":["username"]}])
defs["auth"] = d("How the request authenticates: exactly one kind (docs/suite-format.md#authentication).",
    type="object", additionalProperties=False, minProperties=1, maxProperties=1, properties={
    "basic": creds("HTTP basic authentication: user (or username) and password, templated."),
    "bearer": d("A bearer token, sent as Authorization: Bearer <token>; templated.", **{"$ref":"#/$defs/template"}),
    "digest": creds("HTTP Digest (RFC 7616), answered by libcurl: user and password, templated."),
    "ntlm": creds("NTLM, run by libcurl: user and password, templated."),
    "awsSigV4": d("AWS Signature Version 4, computed by libcurl.", type="object", additionalProperties=False,
        required=["accessKey","secretKey","region","service"], properties={
        "accessKey": ref("template"), "secretKey": ref("template"), "sessionToken": ref("template"),
        "region": ref("template"), "service": ref("template")}),
    "netrc": d("true for ~/.netrc, or a netrc file relative to the suite file.",
        anyOf=[{"const": True}, ref("filePath")]),
    "oauth2": d("A bearer token from an OAuth2 token endpoint, fetched once for the run and renewed before it expires "
        "(docs/auth.md#oauth2).", type="object", additionalProperties=False, required=["flow","tokenURL","clientId"],
        properties={
        "flow": d("The grant: clientCredentials (needs clientSecret), password (username, password) or refreshToken "
            "(refreshToken).", enum=["clientCredentials","password","refreshToken"]),
        "tokenURL": d("The token endpoint: absolute http(s), or relative to baseURL; templated.", **{"$ref":"#/$defs/template"}),
        "clientId": d("The client id; templated.", **{"$ref":"#/$defs/template"}),
        "clientSecret": d("The client secret (a secret: masked everywhere); templated. Without it the client is public "
            "and sends client_id in the body.", **{"$ref":"#/$defs/template"}),
        "scope": d("The scopes asked for, space-separated; templated.", **{"$ref":"#/$defs/template"}),
        "audience": d("The audience parameter (Auth0, Okta); templated.", **{"$ref":"#/$defs/template"}),
        "username": d("The resource owner's user name (flow password); templated.", **{"$ref":"#/$defs/template"}),
        "password": d("The resource owner's password (flow password); templated.", **{"$ref":"#/$defs/template"}),
        "refreshToken": d("The refresh token to start from (flow refreshToken); templated.", **{"$ref":"#/$defs/template"}),
        "clientAuth": d("How the client authenticates: basic (HTTP Basic, the default) or body (client_id and "
            "client_secret in the form).", enum=["basic","body"]),
        },
        allOf=[
            {"if": {"properties": {"flow": {"const": "clientCredentials"}}},
             "then": {"required": ["clientSecret"], "not": {"anyOf": [{"required": ["username"]}, {"required": ["password"]}, {"required": ["refreshToken"]}]}}},
            {"if": {"properties": {"flow": {"const": "password"}}},
             "then": {"required": ["username", "password"], "not": {"required": ["refreshToken"]}}},
            {"if": {"properties": {"flow": {"const": "refreshToken"}}},
             "then": {"required": ["refreshToken"], "not": {"anyOf": [{"required": ["username"]}, {"required": ["password"]}]}}},
        ]),
})
host_entries = lambda what, pattern: d(what, anyOf=[{"type":"string","pattern":pattern},
    {"type":"array","items":{"type":"string","pattern":pattern}}])
TRANSPORT = collections.OrderedDict([
  ("resolve", host_entries("host:port:address[,address...] entries (curl --resolve); templated.", r"^(?:\{\{.*|\+?[^:]+:[0-9{]+.*:.+)$")),
  ("connectTo", host_entries("host:port:connect-host:connect-port entries (curl --connect-to); templated.", r"^(?:.*\{\{.*|(?:\[[^]]*\]|[^:]*):[0-9]*:(?:\[[^]]*\]|[^:]*):[0-9]*)$")),
  ("unixSocket", d("A unix domain socket that carries every connection; relative to the suite file.", type="string", minLength=1)),
  ("httpVersion", d("The HTTP version: 1.1, 2 (HTTP/2 over TLS when offered: the default) or 2-prior-knowledge.",
      enum=["1.1","2","2-prior-knowledge",1.1,2])),
  ("proxy", d("A proxy URL (otherwise the environment's http_proxy, https_proxy, all_proxy); templated.", **{"$ref":"#/$defs/template"})),
  ("noProxy", d("Hosts reached without the proxy, comma-separated, * for all; templated.", **{"$ref":"#/$defs/template"})),
])
defs["defaults"] = d("Settings for every request.", type=["object","null"], additionalProperties=False, properties={
    "headers": d("Headers sent with every request; a request header of the same name (case-insensitive) replaces one.", **{"$ref":"#/$defs/headers"}),
    "timeout": d("Per-request time limit.", **{"$ref":"#/$defs/duration"}),
    "followRedirects": ref("followRedirects"),
    "maxRedirects": ref("maxRedirects"),
    "compressed": ref("compressed"),
    "retry": d("The retry policy of every step that has none of its own.", **{"$ref":"#/$defs/retry"}),
    "maxResponseSize": d("The most bytes of a response body kept in memory for checks: a number of bytes, or a size "
        "with a unit (`200MB`, `64MiB`, `1.5GB`; KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB of 1024); `0` for no "
        "limit. Default: `--max-response-size`, 64 MiB. Bodies that no check reads (only size or digests) are not "
        "kept and not limited.",
        anyOf=[{"type":"integer","minimum":0},
               {"type":"string","pattern": r"^\s*(?:[0-9]+\.?[0-9]*|\.[0-9]+)\s*(?:[kKmMgGtT][iI]?[bB]|[bB])?\s*$"}]),
    "auth": d("How every request without auth, basicAuth or its own Authorization header authenticates.", **{"$ref":"#/$defs/auth"}),
    **TRANSPORT,
})
defs["retry"] = d("Tries a step again: `{attempts: 10, interval: 500ms, until: {json: {$.state: done}}}`. Without `until`, a step is tried again while its expectations fail.",
    type="object", additionalProperties=False, required=["attempts"], properties={
    "attempts": d("The number of tries, the first included.", type="integer", minimum=1, maximum=10000),
    "interval": d("The pause between tries.", **{"$ref":"#/$defs/duration"}),
    "until": d("Checks (an `expect` map) that end the polling; not empty.", allOf=[ref("expect"), {"type":"object","minProperties":1}]),
})
# forEach
defs["forEach"] = d("Runs the test once per row: an inline list of maps (column → literal value, no placeholders), or `{file: rows.csv}` / `{file: rows.json}` (a header row of names / an array of objects). Each row's test is named from the test's name filled with the row's values, or the name followed by the values.",
    anyOf=[
      {"type":"array","minItems":1,"items":{"type":"object","propertyNames":{"pattern":VARNAME},
          "additionalProperties":ref("literalValue")}},
      {"type":"object","additionalProperties":False,"required":["file"],"properties":{
         "file": d("A .csv or .json file relative to the suite file.", type="string", pattern=r"\.(?:[cC][sS][vV]|[jJ][sS][oO][nN])$")}}])
defs["literalValue"] = d("Data without placeholders: no string may contain `{{`.",
    anyOf=[{"type":["number","boolean","null"]}, {"type":"string","not":{"pattern":r"\{\{"}},
           {"type":"array","items":{"$ref":"#/$defs/literalValue"}},
           {"type":"object","additionalProperties":{"$ref":"#/$defs/literalValue"}}])
# security (documented by the tls branch)
defs["security"] = d("How servers' certificate chains are trusted (AFSecurityPolicy): pinning and trust anchors, checked during the TLS handshake.",
    type=["object","null"], additionalProperties=False, properties={
    "pinning": d("What must match: none (default), publicKey (a pin matches a key of the verified chain) or certificate (the pinned certificates are the only trust anchors).", enum=["none","publicKey","certificate"]),
    "pins": d("Public-key pins in curl's format, sha256//<base64 of the SHA-256 of the SubjectPublicKeyInfo>; one string or a list.",
        anyOf=[{"$ref":"#/$defs/pin"},{"type":"array","items":ref("pin")}]),
    "certificates": d("Pinned certificate files (PEM or DER), relative to the suite file; one path or a list.",
        anyOf=[ref("filePath"),{"type":"array","items":ref("filePath")}]),
    "allowInvalidCertificates": d("Accept a chain that fails verification (never disables a pin or the host-name check).", type="boolean"),
    "validatesDomainName": d("Check the certificate against the URL's host (default true).", type="boolean"),
    "caFile": d("A PEM bundle of trust anchors instead of the system's.", **{"$ref":"#/$defs/filePath"}),
    "clientCertificate": d("A PEM client certificate for mutual TLS.", **{"$ref":"#/$defs/filePath"}),
    "clientKey": d("The client certificate's PEM key (default: the certificate file).", **{"$ref":"#/$defs/filePath"}),
    "hosts": d("The hosts the pins apply to (default: the host of each request).",
        anyOf=[{"type":"string"},{"type":"array","items":ref("text")}]),
})
defs["openapi"] = d("The OpenAPI 3.0/3.1 document (YAML or JSON, relative to this file) that every response is checked against (docs/openapi.md): a path, or a map.",
    anyOf=[ref("filePath"), {"type":"object","additionalProperties":False,"required":["file"],"properties":{
        "file": d("The OpenAPI document, relative to this file.", **{"$ref":"#/$defs/filePath"}),
        "server": d("The base URL or path of the API under test, instead of the document's servers; only its path is used. No placeholders.",
            type="string", pattern=r"^(?:/|[A-Za-z][A-Za-z0-9+.-]*://)(?!.*\{\{)"),
        "strict": d("Requests that break the contract or match no operation fail the step (default: warnings).", type="boolean"),
        "ignore": d("Operations left out of checks and coverage: an operationId, 'METHOD /path/{template}' or '/path/{template}'.",
            type="array", items=ref("text")),
    }}])
defs["response"] = d("How response bodies are decoded for the checks.", type=["object","null"], additionalProperties=False, properties={
    "decoders": d("The decoders to try, in order: json, xml, plist, image, text, binary (default: chosen by Content-Type and sniffing).",
        type="array", minItems=1, uniqueItems=True, items={"enum":["json","xml","plist","image","text","binary"]}),
    "removesKeysWithNullValues": d("Drop object members whose value is null from decoded JSON (AFJSONResponseSerializer's removesKeysWithNullValues).", type="boolean"),
    "acceptableContentTypes": d("Media types every response must have: type/subtype, type/*, or a +suffix like +json.",
        type="array", minItems=1, items={"type":"string","pattern":r"^(?:\+.*|/*[^/ ]+/+[^/ ]+/*)$"}),
})
defs["include"] = d("Shared settings files (include, baseURL, variables, defaults, security, openapi, setup, teardown), relative to this file; later files and the suite's own settings win.",
    anyOf=[ref("filePath"), {"type":"array","items":ref("filePath")}])
defs["pin"] = {"type":"string","pattern":r"^sha256//[A-Za-z0-9+/]{43}=$"}

# request
BODIES = ["json","form","body","bodyFile","multipart","plist","xml"]
req_props = collections.OrderedDict([
  ("method", d("The HTTP method, an HTTP token; upper-cased on load (default GET).", type=["string","number","boolean"], pattern=TOKEN)),
  ("url", d("Absolute http(s) URL, or relative to `baseURL`; templated.", type=["string","number","boolean"], minLength=1,
      pattern=r"^(?:(?![A-Za-z][A-Za-z0-9+.-]*://)|[Hh][Tt][Tt][Pp][Ss]?://)")),
  ("query", d("Query parameters; values templated, and may be lists and maps (`filter: {role: admin}`, `ids: [1, 2]`).", type="object")),
  ("headers", d("Request headers, templated.", **{"$ref":"#/$defs/headers"})),
  ("basicAuth", d("HTTP basic authentication.", type="object", additionalProperties=False, required=["username","password"],
      properties={"username": ref("template"), "password": ref("template")})),
  ("json", d("A body sent as JSON (any YAML value, templated; a string that is exactly one placeholder keeps the value's type).")),
  ("form", d("A body sent as application/x-www-form-urlencoded; values templated.", type="object")),
  ("body", d("A raw text body, templated.", **{"$ref":"#/$defs/template"})),
  ("bodyFile", d("A file's bytes as the body, streamed from disk; relative to the suite file.", **{"$ref":"#/$defs/filePath"})),
  ("multipart", d("A multipart/form-data body: a list of parts, each with a `name` and one of `value`, `file` or `data`.",
      type="array", minItems=1, items=ref("multipartPart"))),
  ("plist", d("A property-list body (XML, or binary with `plistFormat: binary`); any value but null, templated.", **{"$ref":"#/$defs/plistValue"})),
  ("plistFormat", d("The encoding of a `plist` body.", enum=["xml","binary"])),
  ("xml", d("An XML body sent as application/xml: the document as text (templated), or `{file: path}` streamed from disk.",
      anyOf=[ref("template"), {"type":"object","additionalProperties":False,"required":["file"],"properties":{"file": ref("filePath")}}])),
  ("contentType", d("Content-Type for a `body` or `bodyFile` body (the other bodies set their own).", **{"$ref":"#/$defs/template"})),
  ("timeout", d("This request's time limit (default: defaults.timeout).", **{"$ref":"#/$defs/duration"})),
  ("followRedirects", ref("followRedirects")),
  ("maxRedirects", ref("maxRedirects")),
  ("compressed", ref("compressed")),
  ("auth", d("How this request authenticates (replaces defaults.auth).", **{"$ref":"#/$defs/auth"})),
  *TRANSPORT.items(),
])
one_body = [{"if":{"required":[b]},"then":{"properties":{o: False for o in BODIES if o != b}}} for b in BODIES]
defs["request"] = d("An HTTP request. At most one body: json, form, body, bodyFile, multipart, plist or xml.",
    type="object", additionalProperties=False, required=["url"], properties=req_props,
    dependentRequired={"plistFormat":["plist"]},
    dependentSchemas={"contentType":{"anyOf":[{"required":["body"]},{"required":["bodyFile"]}]}},
    allOf=one_body)
defs["plistValue"] = {"anyOf":[{"type":["string","number","boolean"]},
    {"type":"array","items":{"$ref":"#/$defs/plistValue"}},
    {"type":"object","additionalProperties":{"$ref":"#/$defs/plistValue"}}]}
defs["multipartPart"] = d("One part of a multipart body.", type="object", additionalProperties=False, required=["name"],
    properties={
      "name": d("The field name, templated.", **{"$ref":"#/$defs/template"}),
      "value": d("A text field, templated.", **{"$ref":"#/$defs/template"}),
      "file": d("A file streamed from disk, relative to the suite file.", **{"$ref":"#/$defs/filePath"}),
      "data": d("Inline content, templated; sent like a file when it has a filename.", **{"$ref":"#/$defs/template"}),
      "filename": d("The filename sent (file and data parts; a file part defaults to the file's own name).", **{"$ref":"#/$defs/template"}),
      "contentType": d("The part's Content-Type (a file part defaults to the type of its extension).", **{"$ref":"#/$defs/template"}),
      "headers": d("More header fields for the part.", **{"$ref":"#/$defs/headers"}),
    },
    oneOf=[{"required":["value"]},{"required":["file"]},{"required":["data"]}],
    **{"if":{"required":["value"]},"then":{"properties":{"filename":False}}})

# predicates and filters
def pred_args(textual):
    anyv = {} if not textual else {"type":["string","number","boolean"]}
    return collections.OrderedDict([
      ("equals", d("Equals the argument as a JSON value of the same type (the string \"5\" is not 5, except from text: headers, body, regex groups), 1 equals 1.0, strings by code points, member order ignored.", **anyv)),
      ("notEquals", d("Does not equal the argument; holds for an absent value.", **anyv)),
      ("contains", d("String: contains the text; array: has an equal element; object: has the key.", **anyv)),
      ("notContains", d("The opposite of contains; holds for an absent value.", **anyv)),
      ("startsWith", d("Starts with the text.", type="string")),
      ("endsWith", d("Ends with the text.", type="string")),
      ("matches", d("Matches the regular expression (ICU syntax, searched anywhere; anchor with ^…$).", type="string")),
      ("exists", d("Is present (true) or absent (false).", type="boolean")),
      ("notExists", d("Is absent (true) or present (false).", type="boolean")),
      ("isEmpty", d("Is an empty (true) or non-empty (false) string, array or object.", type="boolean")),
      ("greaterThan", d("Greater than a number, or a string compared by code points (ISO-8601 dates order); a JSON string never orders against a number; on duration, a duration like 500ms.", type=["number","string"])),
      ("greaterThanOrEqual", d("Greater than or equal (see greaterThan).", type=["number","string"])),
      ("lessThan", d("Less than (see greaterThan).", type=["number","string"])),
      ("lessThanOrEqual", d("Less than or equal (see greaterThan).", type=["number","string"])),
      ("between", d("Within [low, high], both included.", type="array", minItems=2, maxItems=2, items={"type":["number","string"]})),
      ("oneOf", d("Equals one of the listed values.", type="array", **({"items": anyv} if textual else {}))),
      ("type", d("Is of a type, or one of several: string, integer, number, boolean, null, array, object, date.",
          anyOf=[{"enum":TYPES + [None]},{"type":"array","items":{"enum":TYPES + [None]}}])),
    ])
defs["filter"] = d("A filter: a name (count, first, toInt, ...) or a one-key map ({nth: 0}, {split: \",\"}, {regex: '(\\d+)'}, {replace: {pattern, with}}, {jsonpath: $.a}, {xpath: //a}).",
  anyOf=[
    {"enum": PLAIN_FILTERS + FUNCTION_FILTERS},
    {"type":"object","minProperties":1,"maxProperties":1,"additionalProperties":False,"properties":{
      "nth": d("The item at a 0-based index; negative counts from the end.", type="integer", minimum=-1000000, maximum=1000000),
      "split": d("Splits a string at every separator.", type=["string","number","boolean"], minLength=1),
      "regex": d("Group 1 of the first match (the whole match without groups).", type=["string","number","boolean"]),
      "replace": d("Every match of `pattern` replaced by `with` ($1 is group 1).", type="object", additionalProperties=False,
          required=["pattern","with"], properties={"pattern": ref("text"), "with": {"type":["string","number","boolean","null"]}}),
      "jsonpath": d("A JSONPath on a string holding JSON.", type=["string"], pattern=r"^\s*\$"),
      "xpath": d("An XPath 1.0 expression on a string holding XML.", type=["string","number","boolean"], pattern=r"\S"),
    }}])
defs["filters"] = d("Filters applied in order between the query and the predicate.", type="array", items=ref("filter"))

def check_map(textual):
    args = pred_args(textual)
    props = collections.OrderedDict([("filters", ref("filters"))]); props.update(args)
    return {"type":"object","anyOf":[
        {"description":"A filter name leading to the rest of the check: {count: {greaterThan: 0}}.",
         "minProperties":1,"maxProperties":1,"propertyNames":{"enum":PLAIN_FILTERS},
         "additionalProperties": ref("filteredCheck")},
        {"additionalProperties":False,"properties":props,
         "oneOf":[{"required":[p]} for p in PREDICATES]}]}
defs["predicateMap"] = check_map(False)
textmap = check_map(True)
# With filters the value is no longer the raw text.
textmap["anyOf"][1] = {"if":{"required":["filters"]},"then":ref("predicateMap"),"else":textmap["anyOf"][1]}
defs["textPredicateMap"] = textmap
defs["filteredCheck"] = d("What follows a filter: a value (equality) or a check map.",
    anyOf=[{"not":{"type":"object"}}, ref("predicateMap")])
defs["textCheck"] = d("A check on text: a value (compared as text) or a map with one predicate, optionally after filters.",
    anyOf=[{"type":["string","number","boolean"]}, ref("textPredicateMap")])
defs["scalarCheck"] = d("A check: a value (equality) or a map with one predicate, optionally after filters.",
    anyOf=[{"type":["string","number","boolean","null"]}, ref("predicateMap")])
check_words = PREDICATES + ["filters"]
defs["valueCheck"] = d("A check on a JSON/XML value: any value (equality; a map that is not a check is an expected object), or a map with one predicate, optionally after filters. Wrap an object whose keys look like a check in {equals: ...}.",
    **{"if":{"type":"object","anyOf":[{"propertyNames":{"enum":check_words}},
                                       {"minProperties":1,"maxProperties":1,"propertyNames":{"enum":PLAIN_FILTERS}}]},
       "then":ref("predicateMap")})

def keyed(text, names, check):
    return d(text, type=["object","null"], propertyNames=names, additionalProperties=ref(check))

expect_props = collections.OrderedDict([
  ("status", d("The status: a code (200), a class (2xx, 2XX), or a list of them ([200, 201], [2xx, 304]). Absent: any 2xx.",
      anyOf=[ref("statusPattern"), {"type":"array","minItems":1,"items":ref("statusPattern")}])),
  ("headers", keyed("Response headers by name (case-insensitive) → check on their text.", {"pattern":TOKEN}, "textCheck")),
  ("json", keyed("RFC 9535 JSONPath → check on the JSON body (or a property list).", {"pattern":r"^\s*\$"}, "valueCheck")),
  ("xml", keyed("XPath 1.0 expression → check on the XML body.", {"pattern":r"\S"}, "valueCheck")),
  ("cookies", keyed("Cookies the response sets: `session` (the value) or `session[Max-Age]` (an attribute) → check.",
      {"pattern": r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\[" + attr_pattern + r"\])?$"}, "scalarCheck")),
  ("body", d("The body as text (charset of Content-Type, else UTF-8).", **{"$ref":"#/$defs/textCheck"})),
  ("bodySize", d("The body's size in bytes, after Content-Encoding is undone.", **{"$ref":"#/$defs/scalarCheck"})),
  ("duration", d("The whole transfer's time in milliseconds; bounds may be durations ({lessThan: 500ms}).", **{"$ref":"#/$defs/scalarCheck"})),
  ("url", d("The URL of the final response, after redirects.", **{"$ref":"#/$defs/textCheck"})),
  ("redirects", d("The number of redirects followed.", **{"$ref":"#/$defs/scalarCheck"})),
  ("sha256", d("The lower-case hex SHA-256 of the body.", **{"$ref":"#/$defs/textCheck"})),
  ("md5", d("The lower-case hex MD5 of the body.", **{"$ref":"#/$defs/textCheck"})),
  ("certificate", d("Facts of the server's leaf certificate: subject, issuer, notBefore, notAfter (ISO-8601), serialNumber (upper-case hex), subjectAlternativeNames (a list) → check.",
      type=["object","null"], additionalProperties=False,
      properties={f: (ref("valueCheck") if f == "subjectAlternativeNames" else ref("scalarCheck")) for f in CERT_FIELDS})),
  ("image", d("Facts of an image body: format (png, jpeg, gif, webp, bmp), width, height → check.",
      type=["object","null"], additionalProperties=False, properties={f: ref("scalarCheck") for f in IMAGE_FIELDS})),
  ("schema", d("The JSON body must be valid for a JSON Schema (2020-12 or draft-07): a schema file relative to the suite (local $refs across files), or an inline schema (a map, without placeholders).",
      anyOf=[ref("filePath"), {"type":"object"}])),
  ("assert", d("The general form: a list of checks, each a query, optional filters and one predicate.",
      type="array", items=ref("assertItem"))),
])
defs["expect"] = d("What the response must satisfy; every key is optional.", type=["object","null"],
    additionalProperties=False, properties=expect_props)
defs["statusPattern"] = {"anyOf":[{"type":"integer","minimum":100,"maximum":599},
    {"type":"string","pattern":r"^\s*(?:[1-5][xX][xX]|[1-5][0-9][0-9])\s*$"}]}

query_props = collections.OrderedDict([
  ("query", d("A query without argument: status, body, duration (ms), bodySize, sha256, md5, url, redirects.", enum=PLAIN_QUERIES)),
  ("header", d("A response header's value (text).", type=["string","number","boolean"], pattern=TOKEN)),
  ("cookie", d("A cookie the response sets; its value, or an attribute with `attribute` (or `name[Attribute]`).",
      type=["string","number","boolean"], pattern=r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\[" + attr_pattern + r"\])?$")),
  ("attribute", d("The cookie attribute: Value, Expires, Max-Age, Domain, Path, Secure, HttpOnly, SameSite (case-insensitive).",
      type="string", pattern="^" + attr_pattern + "$")),
  ("jsonpath", d("An RFC 9535 JSONPath on the body.", type="string", pattern=r"^\s*\$")),
  ("xpath", d("An XPath 1.0 expression on the XML body.", type=["string","number","boolean"], pattern=r"\S")),
  ("regex", d("A regular expression on the body text: group 1 of the first match, or the whole match when it has no group.", **{"$ref":"#/$defs/text"})),
  ("group", d("The capture group of `regex` (0: the whole match).", type="integer", minimum=0, maximum=99)),
  ("certificate", d("A fact of the leaf certificate.", enum=CERT_FIELDS)),
  ("image", d("A fact of an image body.", enum=IMAGE_FIELDS)),
])
query_rules = [{"oneOf":[{"required":[q]} for q in ["query"] + ARG_QUERIES]}]
query_deps = {"attribute":["cookie"], "group":["regex"]}
assert_props = collections.OrderedDict(query_props); assert_props["filters"] = ref("filters")
assert_props.update(pred_args(False))
text_query = {"anyOf":[{"required":["header"]},{"required":["regex"]},
    {"required":["query"],"properties":{"query":{"enum":["body","url","sha256","md5"]}}}]}
defs["assertItem"] = d("A check of the general form: one query (query, header, cookie, jsonpath, xpath, regex, certificate, image), optional filters, one predicate.",
    type="object", additionalProperties=False, properties=assert_props, dependentRequired=query_deps,
    allOf=query_rules + [{"oneOf":[{"required":[p]} for p in PREDICATES]},
        {"if":{"allOf":[text_query, {"not":{"required":["filters"]}}]},
         "then":{"properties":{k: v for k, v in pred_args(True).items() if k in ["equals","notEquals","contains","notContains","oneOf"]}}}])
cap_props = collections.OrderedDict(query_props); cap_props["filters"] = ref("filters")
defs["captureSource"] = d("Where a captured value comes from: one query and optional filters (no predicate).",
    type="object", additionalProperties=False, properties=cap_props, dependentRequired=query_deps, allOf=query_rules)
defs["capture"] = d("Variable name → query: values for the later steps of the same test.", type=["object","null"],
    propertyNames={"pattern":VARNAME}, additionalProperties=ref("captureSource"))
defs["condition"] = d("A condition (docs/suite-format.md#conditions-and-loops): an expression over variables and "
    "captures, e.g. '{{ count }} > 0', '{{ env.STAGE }} == \"prod\"', 'id exists and not (id in done)'; or true/false.",
    anyOf=[{"type":"string","minLength":1,"pattern":r"\S"},{"type":"boolean"}])
defs["stepLoop"] = d("Run the step once for each element of a list captured earlier; each iteration is a named step in "
    "reports (NAME › I/N (as=VALUE)).", type="object", additionalProperties=False, required=["items","as"], properties={
    "items": d("The list, as a placeholder: \"{{ ids }}\".", type="string", pattern=r"\{\{"),
    "as": d("The name each element takes in the step.", type="string", pattern=VARNAME),
    "maxItems": d("The longest list run (default 1000); a longer one errors the step.", type="integer", minimum=1, maximum=1000000),
})
defs["step"] = d("One request of a test, setup or teardown, or `{include: steps.yaml}`: the steps of a shared file (a list of steps, or a map with `steps`), relative to this file.",
    anyOf=[
      {"type":"object","additionalProperties":False,"required":["request"],
       "properties":{"name": d("What reports call the step instead of 'step N'.", type=["string","number","boolean"], minLength=1),
                     "request": ref("request"), "expect": ref("expect"), "capture": ref("capture"), "retry": ref("retry"),
                     "when": d("Send the step only when this holds; otherwise it is reported as skipped.", **{"$ref":"#/$defs/condition"}),
                     "forEach": ref("stepLoop")}},
      {"type":"object","additionalProperties":False,"required":["include"],
       "properties":{"include": d("A file of shared steps, relative to this file.", **{"$ref":"#/$defs/filePath"})}},
      {"type":"object","additionalProperties":False,"required":["steps"],
       "description":"A group of steps: its name, when and forEach apply to its steps together (groups do not nest).",
       "properties":{"name": d("What reports call the group.", type=["string","number","boolean"], minLength=1),
                     "when": d("Run the group only when this holds; otherwise it is reported as skipped.", **{"$ref":"#/$defs/condition"}),
                     "forEach": ref("stepLoop"),
                     "steps": d("The group's steps.", **{"$ref":"#/$defs/steps"})}}])
defs["steps"] = {"type":"array","minItems":1,"items":ref("step")}
defs["test"] = d("A test: `request` (with optional `expect`, `capture`, `retry`), or `steps`.", type="object",
    additionalProperties=False, required=["name"], properties=collections.OrderedDict([
      ("name", d("The test's name, unique within the file (with forEach: may use the row's columns).", type=["string","number","boolean"], minLength=1)),
      ("tags", d("Labels: --tag selects tests by them, --exclude-tag leaves them out.", type="array", items=ref("text"))),
      ("skip", d("Do not run the test: a reason, or true (false runs it).", type=["string","number","boolean"])),
      ("when", d("Run the test only when this holds, judged when it starts; otherwise it is skipped.", **{"$ref":"#/$defs/condition"})),
      ("forEach", ref("forEach")),
      ("request", ref("request")),
      ("expect", ref("expect")),
      ("capture", ref("capture")),
      ("retry", ref("retry")),
      ("steps", d("Several requests, run in order; captures flow to later steps.", **{"$ref":"#/$defs/steps"})),
      ("load", d("How `apitest load` treats the test.", type="object", additionalProperties=False,
                 properties={"weight": d("How often the load mode picks this test against the others (default 1; 0 never).",
                                         type="integer", minimum=0, maximum=1000)})),
    ]),
    oneOf=[{"required":["request"]},{"required":["steps"]}],
    **{"if":{"required":["steps"]},"then":{"properties":{"expect":False,"capture":False,"retry":False}}})

schema = collections.OrderedDict([
  ("$schema","https://json-schema.org/draft/2020-12/schema"),
  ("title","apitest suite"),
  ("description","A suite of HTTP API tests for apitest (docs/suite-format.md). Point the YAML language server at this file with `# yaml-language-server: $schema=<path>/apitest.schema.json`."),
  ("type","object"),
  ("additionalProperties", False),
  ("required",["tests"]),
  ("properties", collections.OrderedDict([
    ("name", d("The suite's name in reports (default: the file name without extension).", **{"$ref":"#/$defs/text"})),
    ("include", ref("include")),
    ("baseURL", d("What relative request URLs resolve against; must render to an absolute http:// or https:// URL. Templated.",
        type="string", pattern=r"^(?:[Hh][Tt][Tt][Pp][Ss]?://|.*\{\{)")),
    ("variables", ref("variables")),
    ("defaults", ref("defaults")),
    ("security", ref("security")),
    ("openapi", ref("openapi")),
    ("response", ref("response")),
    ("setup", d("Steps run once before the tests; their captures are visible to every test.", **{"$ref":"#/$defs/steps"})),
    ("tests", d("The tests; at least one.", type="array", minItems=1, items=ref("test"))),
    ("teardown", d("Steps run once after the tests, also after failures.", **{"$ref":"#/$defs/steps"})),
    ("load", d("What `apitest load` holds the suite's tests to.", type="object", additionalProperties=False,
               properties={"thresholds": d("Rules such as p95<20ms, errors<0.1%, rate>1900/s (besides --threshold).",
                                           type="array", items={"type": "string", "pattern": "^\\s*[A-Za-z0-9().]+\\s*[<>]=?"})})),
  ])),
  ("$defs", defs),
])

# The files a suite includes: shared settings (`include:` at the top level) or shared steps (`- include:` as a step).
INCLUDED_KEYS = ["include", "baseURL", "variables", "defaults", "security", "openapi", "setup", "teardown"]
included = collections.OrderedDict([
  ("$schema","https://json-schema.org/draft/2020-12/schema"),
  ("title","apitest included file"),
  ("description","A file that apitest suites include (docs/suite-format.md, `include`): shared settings (include, baseURL, variables, defaults, security, openapi, setup, teardown), or shared steps (a list of steps, or a map with `steps`). Point the YAML language server at this file with `# yaml-language-server: $schema=<path>/apitest-include.schema.json`."),
  ("anyOf", [
    {"description":"Shared settings.","type":"object","additionalProperties":False,
     "properties":collections.OrderedDict((key, schema["properties"][key]) for key in INCLUDED_KEYS)},
    {"description":"Shared steps, as a map.","type":"object","additionalProperties":False,"required":["steps"],
     "properties":{"steps": ref("steps")}},
    d("Shared steps, as a list.", **{"$ref":"#/$defs/steps"}),
  ]),
  ("$defs", defs),
])

if __name__ == "__main__":
    import sys
    chosen = included if sys.argv[1:] == ["--included"] else schema
    print(json.dumps(chosen, indent=2, ensure_ascii=False))
