import APITestSupport

/// The names other tools and habits give the suite format's keys (`xpath` for `expect`'s `xml`, `statusCode` for
/// `status`, `vars` for `variables` ...): an unknown key that is one of them gets the construct's own key as its
/// did-you-mean, however far apart the two are spelled. The one table of them, read by the unknown-key error
/// (`SuiteParseContext.checkKeys`) before the edit-distance suggestion.
enum KeyAlias {
    /// Names of one thing, compared by ``normalized(_:)``: an unknown key that is one of them is offered the first
    /// key of the construct that is one of them too. A construct may have either side (`expect` has `xml`, a query
    /// has `xpath`), so a group holds its keys as well as their aliases.
    static let groups: [[String]] = [
        ["xml", "xpath"],
        ["json", "jsonpath", "jsonbody"],
        ["headers", "header"],
        ["cookies", "cookie", "setcookie"],
        ["status", "statuscode", "code", "httpstatus", "responsecode", "statuses"],
        ["duration", "responsetime", "elapsed", "latency", "time"],
        ["bodySize", "size", "contentlength", "length"],
        ["body", "text", "data", "payload", "content"],
        ["schema", "jsonschema"],
        ["assert", "assertions", "asserts", "checks"],
        ["expect", "expected", "expectations", "response", "validate"],
        ["capture", "captures", "extract", "save", "store"],
        ["url", "uri", "endpoint", "path"],
        ["query", "params", "queryparams", "querystring", "parameters"],
        ["method", "verb", "httpmethod"],
        ["variables", "vars", "env", "environment"],
        ["baseURL", "host", "baseuri"],
        ["contentType", "mediatype", "mimetype"],
        ["auth", "authentication", "authorization"],
        ["tests", "cases", "testcases"],
        ["forEach", "loop", "each", "iterate"],
        ["when", "if", "condition"],
        ["tags", "labels"],
    ]

    /// Each normalized name of `groups` and the group it is in.
    private static let groupOfName: [String: Int] = {
        var result: [String: Int] = [:]
        for (index, group) in groups.enumerated() {
            for name in group { result[normalized(name)] = index }
        }
        return result
    }()

    /// The key among `names` (a construct's keys, in declaration order) that `word`, an unknown key, is another
    /// name of; `nil` when `word` is no alias or the construct has no key of its group.
    static func suggestion(for word: String, among names: [String]) -> String? {
        let key = normalized(word)
        guard let group = groupOfName[key] else { return nil }
        return names.first { name in
            let other = normalized(name)
            return other != key && groupOfName[other] == group
        }
    }

    /// The did-you-mean of an unknown key `word` among a construct's keys `names`: the key it is another name of,
    /// else the closest by spelling (``Suggestion/closest(to:in:)``).
    static func closest(to word: String, in names: [String]) -> String? {
        suggestion(for: word, among: names) ?? Suggestion.closest(to: word, in: names)
    }

    /// The keys that only a suite's top level takes: an alias of one of them in another construct (`vars:` in a
    /// test) is offered the key and where it goes, not a key of the construct that is merely spelled alike (`tags`).
    static let suiteLevelKeys: Set<String> = ["variables", "baseURL", "tests"]

    /// `"; did you mean 'x'?"` for ``closest(to:in:)``, or an empty string. An alias of a key only the suite's top
    /// level takes (not the key itself), among names without it, is offered that key and its place
    /// (``suiteLevelKeys``).
    static func didYouMean(_ word: String, in names: [String]) -> String {
        if suggestion(for: word, among: names) == nil, let group = groupOfName[normalized(word)],
            let key = groups[group].first, suiteLevelKeys.contains(key), !names.contains(key),
            normalized(word) != normalized(key)
        {
            return "; did you mean '\(key)'? It belongs to the suite's top level"
        }
        return closest(to: word, in: names).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// `name` lower-cased without `_`, `-`, `.` and spaces: `status_code`, `statusCode` and `Status-Code` are one.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !"_-. ".unicodeScalars.contains($0) })
    }
}
