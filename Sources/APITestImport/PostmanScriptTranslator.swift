import APITestJSON
import Foundation

/// Translates a Postman test script into checks and captures that mean exactly what its assertions mean, and lists
/// every line it did not translate. It reads the script as JavaScript (``PostmanScriptParser``), not as text: a
/// statement is translated whole or not at all, so a chain such as `pm.expect(x).to.be.a('string').and.match(/a/)`
/// becomes two checks, or none and a note.
///
/// Translated: `pm.test(name, function () {...})` and `pm.test(name, () => {...})` blocks (their bodies),
/// `pm.response.to.have.status(n)`, `pm.response.to.be.ok` and the other status words of chai-postman,
/// `pm.response.to.have.header(name[, value])`, `pm.response.to.have.body(text)`, and `pm.expect(subject)` chains over
/// `pm.response.code`, `pm.response.responseTime`, `pm.response.text()`, `pm.response.headers.get(name)` and members
/// of `pm.response.json()` (directly or through a variable holding it) with `equal`, `eql`, `include`, `a`/`an`,
/// `property`, `lengthOf`, `match`, `above`/`below`/`least`/`most`, `within`, `oneOf`, `true`, `false`, `null`,
/// `undefined`, `exist`, `empty` and `not`; `pm.environment.set(name, <one of those subjects>)` (and
/// `pm.collectionVariables`, `pm.globals`, `pm.variables`, `postman.setEnvironmentVariable`) as captures; and the
/// old `tests["..."] = responseCode.code === n` and `responseTime < n`.
///
/// Where JavaScript and apitest differ, the translation adds a type check so that both fail alike: chai's `above`
/// fails on a string that apitest would compare as a number, so `pm.expect(x).to.be.above(3)` is
/// `{type: number}` and `{greaterThan: 3}`. What cannot mean the same (`to.be.ok`'s truthiness on a value, `equal`
/// with an object literal, which JavaScript compares by reference, a negated `a`) is left as a note.
package enum PostmanScriptTranslator {
    /// The translation of a script's `lines`.
    package static func translate(_ lines: [String]) -> ScriptTranslation {
        var translator = Translator()
        translator.statements(PostmanScriptParser.statements(lines.joined(separator: "\n")))
        var result = translator.result
        var listed: Set<Int> = []
        for (first, last) in translator.untranslated {
            for number in first...max(first, last) where number >= 1 && number <= lines.count {
                let text = lines[number - 1].trimmingSpaces
                if text.isEmpty || text.hasPrefix("//") || listed.contains(number) { continue }
                listed.insert(number)
                result.untranslated.append(ScriptLine(number: number, text: text))
            }
        }
        result.untranslated.sort { $0.number < $1.number }
        return result
    }
}

// MARK: - The translator

/// What a script value stands for: a part of the response, as a query with a JSON path under it.
private struct Subject {
    /// The part of the response.
    enum Base {
        case status, duration, body
        case header(String)
        case json
        /// Whether a header is present (`pm.response.headers.has(name)`): only `true` and `false` compare with it.
        case headerPresence(String)
    }
    /// The part.
    var base: Base
    /// JSONPath segments under `$` (json only): `.name`, `['odd name']`, `[0]`.
    var path: [String] = []
    /// Whether the subject is the `.length` of the value.
    var isLength = false

    /// The query of the value itself (without `.length`).
    var valueQuery: ScriptQuery {
        switch base {
        case .status: return .status
        case .duration: return .duration
        case .body: return .body
        case .header(let name): return .header(name)
        case .json: return .jsonpath("$" + path.joined())
        case .headerPresence(let name): return .header(name)
        }
    }

    /// Whether the value is always a number (status and duration).
    var isNumber: Bool {
        switch base {
        case .status, .duration: return !isLength
        default: return false
        }
    }
}

/// One link of a chain after `pm.expect(x)` or `pm.response`: a property (`to`, `not`, `ok`) or a call (`equal(1)`).
private enum Link {
    case property(String)
    case call(String, [ScriptExpression])
}

/// The walk over a script's statements.
private struct Translator {
    /// What has been translated.
    var result = ScriptTranslation()
    /// The line ranges of statements not translated.
    var untranslated: [(Int, Int)] = []
    /// Variables holding a part of the response (`var data = pm.response.json()`).
    var aliases: [String: Subject] = [:]

    /// A failure to translate a statement.
    struct Untranslatable: Error {}

    /// Translates `statements` in order.
    mutating func statements(_ statements: [ScriptStatement]) {
        for statement in statements {
            let saved = result
            do {
                try self.statement(statement)
            } catch {
                result = saved
                untranslated.append((statement.firstLine, statement.lastLine))
            }
        }
    }

    /// Translates one statement, or throws.
    mutating func statement(_ statement: ScriptStatement) throws(Untranslatable) {
        switch statement.kind {
        case .unsupported:
            throw Untranslatable()
        case .declaration(let name, let value):
            aliases[name] = nil
            guard let subject = subject(value), case .json = subject.base, !subject.isLength else {
                throw Untranslatable()
            }
            aliases[name] = subject
        case .assignment(let target, let value):
            try legacyTest(target: target, value: value)
        case .expression(let expression):
            if case .call(.member(.identifier("pm"), "test"), let arguments) = expression {
                guard arguments.count == 2, case .string = arguments[0], case .function(let body) = arguments[1] else {
                    throw Untranslatable()
                }
                statements(body)
                return
            }
            if try capture(expression) { return }
            let (root, links) = flatten(expression)
            if case .call(.member(.identifier("pm"), "expect"), let arguments) = root, arguments.count == 1,
                let subject = subject(arguments[0])
            {
                try expectChain(subject, links)
            } else if case .member(.identifier("pm"), "response") = root {
                try responseChain(links)
            } else {
                throw Untranslatable()
            }
        }
    }

    // MARK: - Subjects

    /// What `expression` stands for, or nil.
    func subject(_ expression: ScriptExpression) -> Subject? {
        let response = ScriptExpression.member(.identifier("pm"), "response")
        switch expression {
        case .member(response, "code"), .member(.identifier("responseCode"), "code"):
            return Subject(base: .status)
        case .member(response, "responseTime"), .identifier("responseTime"):
            return Subject(base: .duration)
        case .call(.member(response, "text"), []), .identifier("responseBody"):
            return Subject(base: .body)
        case .call(.member(response, "json"), []):
            return Subject(base: .json)
        case .call(.member(.identifier("JSON"), "parse"), let arguments):
            guard arguments.count == 1, let inner = subject(arguments[0]), case .body = inner.base, !inner.isLength
            else { return nil }
            return Subject(base: .json)
        case .call(.member(.member(response, "headers"), "get"), let arguments),
            .call(.member(.identifier("postman"), "getResponseHeader"), let arguments):
            guard arguments.count == 1, case .string(let name) = arguments[0] else { return nil }
            return Subject(base: .header(name))
        case .call(.member(.member(response, "headers"), "has"), let arguments):
            guard arguments.count == 1, case .string(let name) = arguments[0] else { return nil }
            return Subject(base: .headerPresence(name))
        case .identifier(let name):
            return aliases[name]
        case .member(let base, let name):
            guard var subject = subject(base), !subject.isLength else { return nil }
            if name == "length" {
                subject.isLength = true
                return subject
            }
            guard case .json = subject.base else { return nil }
            subject.path.append(Self.segment(name))
            return subject
        case .index(let base, let index):
            guard var subject = subject(base), !subject.isLength, case .json = subject.base else { return nil }
            switch index {
            case .string(let name): subject.path.append(Self.segment(name))
            case .number(let text):
                guard let number = Int(text), number >= 0 else { return nil }
                subject.path.append("[\(number)]")
            default: return nil
            }
            return subject
        default:
            return nil
        }
    }

    /// A JSONPath segment for the member `name`: `.name` when RFC 9535's shorthand allows it, else `['name']`.
    static func segment(_ name: String) -> String {
        let scalars = name.unicodeScalars
        let isShorthand =
            scalars.first.map { isAlpha($0) || $0 == "_" || $0.value >= 0x80 } == true
            && scalars.allSatisfy { isAlpha($0) || $0 == "_" || ($0 >= "0" && $0 <= "9") || $0.value >= 0x80 }
        if isShorthand { return "." + name }
        var escaped = ""
        for scalar in scalars {
            switch scalar {
            case "'": escaped += "\\'"
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "['\(escaped)']"
    }

    /// An ASCII letter.
    static func isAlpha(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }

    // MARK: - Chains

    /// The innermost expression of a chain and the links after it, outermost last: `pm.expect(x).to.equal(1)` is
    /// `pm.expect(x)` and `[to, equal(1)]`.
    func flatten(_ expression: ScriptExpression) -> (ScriptExpression, [Link]) {
        var links: [Link] = []
        var current = expression
        while true {
            switch current {
            case .call(.member(let base, let name), let arguments):
                if case .identifier("pm") = base, name == "expect" { return (current, links.reversed()) }
                links.append(.call(name, arguments))
                current = base
            case .member(.identifier("pm"), "response"):
                return (current, links.reversed())
            case .member(let base, let name):
                links.append(.property(name))
                current = base
            default:
                return (current, links.reversed())
            }
        }
    }

    /// Words of chai's chains that only read well.
    static let languageChains: Set<String> = [
        "to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of", "same", "but", "does",
        "still", "also",
    ]

    /// The checks of `pm.expect(subject)` followed by `links`.
    mutating func expectChain(_ start: Subject, _ links: [Link]) throws(Untranslatable) {
        if case .headerPresence = start.base {
            return try presenceChain(start, links)
        }
        var subject = start
        var negated = false
        var deep = false
        var checks: [ScriptCheck] = []
        for link in links {
            switch link {
            case .property(let word) where Self.languageChains.contains(word):
                continue
            case .property("not"):
                negated.toggle()
            case .property("deep"):
                deep = true
            case .property(let word):
                checks += try propertyAssertion(word, subject, negated: negated)
            case .call(let word, let arguments):
                if word == "property" {
                    checks += try property(arguments, &subject, negated: negated, deep: deep)
                } else {
                    checks += try callAssertion(word, arguments, subject, negated: negated, deep: deep)
                }
            }
        }
        guard !checks.isEmpty else { throw Untranslatable() }
        result.checks += checks
    }

    /// `pm.expect(pm.response.headers.has(name))` with `true`, `false`, `equal(true)`, `equal(false)` (and `not`):
    /// whether the header exists.
    mutating func presenceChain(_ subject: Subject, _ links: [Link]) throws(Untranslatable) {
        var negated = false
        var expected: Bool?
        for link in links {
            switch link {
            case .property(let word) where Self.languageChains.contains(word): continue
            case .property("not"): negated.toggle()
            case .property("true") where expected == nil: expected = true
            case .property("false") where expected == nil: expected = false
            case .call(let word, let arguments)
            where ["equal", "equals", "eq", "eql"].contains(word) && arguments.count == 1 && expected == nil:
                guard case .identifier(let flag) = arguments[0], flag == "true" || flag == "false" else {
                    throw Untranslatable()
                }
                expected = flag == "true"
            default: throw Untranslatable()
            }
        }
        guard let expected else { throw Untranslatable() }
        let present = expected != negated
        result.checks.append(ScriptCheck(subject.valueQuery, present ? "exists" : "notExists", true))
    }

    /// The query and filters of `subject`: `.length` is the `count` filter, after a type check (JavaScript's
    /// `length` is a string's or array's; apitest's `count` also counts an object's members).
    func query(_ subject: Subject) -> (ScriptQuery, [JSONValue], guards: [ScriptCheck]) {
        guard subject.isLength else { return (subject.valueQuery, [], []) }
        let guardCheck = ScriptCheck(subject.valueQuery, "type", ["string", "array"])
        return (subject.valueQuery, ["count"], [guardCheck])
    }

    /// `predicate: argument` on `subject`, with the guards its `.length` needs.
    func check(_ subject: Subject, _ predicate: String, _ argument: JSONValue) -> [ScriptCheck] {
        let (query, filters, guards) = self.query(subject)
        return guards + [ScriptCheck(query, filters: filters, predicate, argument)]
    }

    /// A terminal property: `true`, `false`, `null`, `undefined`, `exist`, `empty`.
    func propertyAssertion(_ word: String, _ subject: Subject, negated: Bool) throws(Untranslatable) -> [ScriptCheck] {
        switch word {
        case "true", "false", "null":
            let value: JSONValue = word == "null" ? .null : .bool(word == "true")
            return check(subject, negated ? "notEquals" : "equals", value)
        case "undefined":
            return check(subject, negated ? "exists" : "notExists", true)
        case "exist":
            guard !negated else { throw Untranslatable() }
            return check(subject, "exists", true) + check(subject, "notEquals", .null)
        case "empty":
            return check(subject, "isEmpty", .bool(!negated))
        default:
            throw Untranslatable()
        }
    }

    /// `property(name[, value])`: the member exists (or equals the value); the chain goes on with the member.
    func property(
        _ arguments: [ScriptExpression], _ subject: inout Subject, negated: Bool, deep: Bool
    ) throws(Untranslatable) -> [ScriptCheck] {
        guard case .json = subject.base, !subject.isLength, (1...2).contains(arguments.count),
            case .string(let name) = arguments[0]
        else { throw Untranslatable() }
        subject.path.append(Self.segment(name))
        if arguments.count == 2 {
            guard let value = Self.literal(arguments[1]), deep || Self.isScalar(value) else { throw Untranslatable() }
            return check(subject, negated ? "notEquals" : "equals", value)
        }
        return check(subject, negated ? "notExists" : "exists", true)
    }

    /// A terminal call: `equal(x)`, `include(x)`, `a(type)`, `above(n)`, ...
    func callAssertion(
        _ word: String, _ arguments: [ScriptExpression], _ subject: Subject, negated: Bool, deep: Bool
    ) throws(Untranslatable) -> [ScriptCheck] {
        if word == "match" || word == "matches", arguments.count == 1 {
            guard !negated, case .regex(let pattern, let flags) = arguments[0] else { throw Untranslatable() }
            var prefix = ""
            for flag in flags {
                switch flag {
                case "i", "m", "s": prefix += String(flag)
                case "g": continue
                default: throw Untranslatable()
                }
            }
            let icu = prefix.isEmpty ? pattern : "(?\(prefix))" + pattern
            return check(subject, "type", "string") + check(subject, "matches", .string(icu))
        }
        let values = arguments.compactMap(Self.literal)
        guard values.count == arguments.count else { throw Untranslatable() }
        let numeric = subject.isNumber ? [] : check(subject, "type", "number")
        switch (word, values.count) {
        case ("equal", 1), ("equals", 1), ("eq", 1):
            guard deep || Self.isScalar(values[0]) else { throw Untranslatable() }
            return check(subject, negated ? "notEquals" : "equals", values[0])
        case ("eql", 1), ("eqls", 1):
            return check(subject, negated ? "notEquals" : "equals", values[0])
        case ("include", 1), ("includes", 1), ("contain", 1), ("contains", 1):
            let kinds: JSONValue
            switch values[0] {
            case .string: kinds = ["string", "array"]
            case .integer, .double, .number, .bool, .null: kinds = ["array"]
            default: throw Untranslatable()
            }
            if subject.isNumber { throw Untranslatable() }
            return check(subject, "type", kinds) + check(subject, negated ? "notContains" : "contains", values[0])
        case ("a", 1), ("an", 1):
            guard !negated, case .string(let name) = values[0] else { throw Untranslatable() }
            switch name.lowercased() {
            case "string", "number", "boolean", "object", "array", "null":
                return check(subject, "type", .string(name.lowercased()))
            case "undefined":
                return check(subject, "notExists", true)
            default:
                throw Untranslatable()
            }
        case ("lengthOf", 1), ("length", 1):
            guard !subject.isLength, case .integer = values[0] else { throw Untranslatable() }
            var length = subject
            length.isLength = true
            return check(length, negated ? "notEquals" : "equals", values[0])
        case ("above", 1), ("gt", 1), ("greaterThan", 1), ("below", 1), ("lt", 1), ("lessThan", 1), ("least", 1),
            ("gte", 1), ("most", 1), ("lte", 1):
            guard Self.isNumber(values[0]) else { throw Untranslatable() }
            let predicate: String
            switch word {
            case "above", "gt", "greaterThan": predicate = negated ? "lessThanOrEqual" : "greaterThan"
            case "below", "lt", "lessThan": predicate = negated ? "greaterThanOrEqual" : "lessThan"
            case "least", "gte": predicate = negated ? "lessThan" : "greaterThanOrEqual"
            default: predicate = negated ? "greaterThan" : "lessThanOrEqual"
            }
            return numeric + check(subject, predicate, values[0])
        case ("within", 2):
            guard !negated, Self.isNumber(values[0]), Self.isNumber(values[1]) else { throw Untranslatable() }
            return numeric + check(subject, "between", .array(values))
        case ("oneOf", 1):
            guard !negated, case .array(let items) = values[0], items.allSatisfy(Self.isScalar) else {
                throw Untranslatable()
            }
            return check(subject, "oneOf", values[0])
        default:
            throw Untranslatable()
        }
    }

    /// `pm.response.to.have.status(200)`, `pm.response.to.be.ok`, `pm.response.to.have.header(...)`, ...
    mutating func responseChain(_ links: [Link]) throws(Untranslatable) {
        var negated = false
        var checks: [ScriptCheck] = []
        for link in links {
            switch link {
            case .property(let word) where Self.languageChains.contains(word):
                continue
            case .property("not"):
                negated.toggle()
            case .property(let word):
                guard !negated, let status = Self.statusWords[word] else { throw Untranslatable() }
                if status.count == 1, case .integer = status[0] {
                    checks.append(ScriptCheck(.status, "equals", status[0]))
                } else {
                    checks.append(ScriptCheck(.status, "oneOf", .array(status)))
                }
            case .call("status", let arguments):
                guard arguments.count == 1, let code = Self.literal(arguments[0]), case .integer = code else {
                    throw Untranslatable()
                }
                checks.append(ScriptCheck(.status, negated ? "notEquals" : "equals", code))
            case .call("header", let arguments):
                guard (1...2).contains(arguments.count), case .string(let name) = arguments[0] else {
                    throw Untranslatable()
                }
                if arguments.count == 2 {
                    guard case .string(let value) = arguments[1] else { throw Untranslatable() }
                    checks.append(ScriptCheck(.header(name), negated ? "notEquals" : "equals", .string(value)))
                } else {
                    checks.append(ScriptCheck(.header(name), negated ? "notExists" : "exists", true))
                }
            case .call("body", let arguments):
                guard arguments.count == 1, case .string(let text) = arguments[0] else { throw Untranslatable() }
                checks.append(ScriptCheck(.body, negated ? "notEquals" : "equals", .string(text)))
            default:
                throw Untranslatable()
            }
        }
        guard !checks.isEmpty else { throw Untranslatable() }
        result.checks += checks
    }

    /// chai-postman's status words and the codes or classes they accept.
    static let statusWords: [String: [JSONValue]] = [
        "ok": [200], "accepted": [202], "withoutContent": [204], "badRequest": [400], "unauthorized": [401],
        "forbidden": [403], "notFound": [404], "rateLimited": [429], "info": ["1xx"], "success": ["2xx"],
        "redirection": ["3xx"], "clientError": ["4xx"], "serverError": ["5xx"], "error": ["4xx", "5xx"],
    ]

    // MARK: - Captures and old scripts

    /// `pm.environment.set(name, subject)` and its kin as a capture; false when `expression` is not such a call.
    mutating func capture(_ expression: ScriptExpression) throws(Untranslatable) -> Bool {
        guard case .call(.member(let owner, let method), let arguments) = expression else { return false }
        let isSetter: Bool
        switch (owner, method) {
        case (.member(.identifier("pm"), let scope), "set"):
            isSetter = ["environment", "collectionVariables", "globals", "variables"].contains(scope)
        case (.identifier("postman"), "setEnvironmentVariable"), (.identifier("postman"), "setGlobalVariable"):
            isSetter = true
        default:
            isSetter = false
        }
        guard isSetter else { return false }
        guard arguments.count == 2, case .string(let name) = arguments[0], let subject = subject(arguments[1]),
            !subject.isLength
        else { throw Untranslatable() }
        if case .duration = subject.base { throw Untranslatable() }
        if case .headerPresence = subject.base { throw Untranslatable() }
        result.captures.append(ScriptCapture(name: name, query: subject.valueQuery))
        return true
    }

    /// `tests["name"] = responseCode.code === 200` and `tests["name"] = responseTime < 500`.
    mutating func legacyTest(target: ScriptExpression, value: ScriptExpression) throws(Untranslatable) {
        guard case .index(.identifier("tests"), .string) = target,
            case .binary(let operation, let left, let right) = value,
            let subject = subject(left), let bound = Self.literal(right)
        else { throw Untranslatable() }
        if case .json = subject.base, operation == "===", Self.isScalar(bound) {
            result.checks += check(subject, "equals", bound)
            return
        }
        guard subject.isNumber, Self.isNumber(bound) else { throw Untranslatable() }
        switch (subject.base, operation) {
        case (.status, "==="), (.status, "=="):
            guard case .integer = bound else { throw Untranslatable() }
            result.checks.append(ScriptCheck(.status, "equals", bound))
        case (.duration, "<"):
            result.checks.append(ScriptCheck(.duration, "lessThan", bound))
        case (.duration, "<="):
            result.checks.append(ScriptCheck(.duration, "lessThanOrEqual", bound))
        default:
            throw Untranslatable()
        }
    }

    // MARK: - Literals

    /// The JSON value of a literal expression (strings, numbers, booleans, null, arrays and objects of them); nil for
    /// anything else. (A string holding `{{` is one: the importer escapes it when it writes the suite.)
    static func literal(_ expression: ScriptExpression) -> JSONValue? {
        switch expression {
        case .string(let text): return .string(text)
        case .number(let text): return number(text)
        case .unary("-", .number(let text)):
            guard let value = number(text) else { return nil }
            switch value {
            case .integer(let integer): return .integer(-integer)
            case .double(let double): return .double(-double)
            default: return try? JSONParser.parse("-" + text)
            }
        case .identifier("true"): return true
        case .identifier("false"): return false
        case .identifier("null"): return .null
        case .array(let items):
            let values = items.compactMap(literal)
            return values.count == items.count ? .array(values) : nil
        case .object(let properties):
            var members: [JSONObject.Member] = []
            for property in properties {
                guard let value = literal(property.value) else { return nil }
                members.append((property.key, value))
            }
            return .object(JSONObject(members))
        default:
            return nil
        }
    }

    /// A number literal's value: decimal as JSON reads it (a leading `.` or a trailing `.` allowed), hexadecimal.
    static func number(_ text: String) -> JSONValue? {
        let lower = text.lowercased()
        if lower.hasPrefix("0x") { return Int64(lower.dropFirst(2), radix: 16).map(JSONValue.integer) }
        var decimal = text
        if decimal.hasPrefix(".") { decimal = "0" + decimal }
        if decimal.hasSuffix(".") { decimal += "0" }
        guard let value = try? JSONParser.parse(decimal) else { return nil }
        switch value {
        case .integer, .double, .number: return value
        default: return nil
        }
    }

    /// Whether `value` is a string, number, boolean or null.
    static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: return false
        default: return true
        }
    }

    /// Whether `value` is a number.
    static func isNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .integer, .double, .number: return true
        default: return false
        }
    }
}
