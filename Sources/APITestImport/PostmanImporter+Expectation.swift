import APITestJSON
import APITestSuiteWriting

extension PostmanImporter {
    // MARK: - Checks into expect

    /// Every status class: the `status` that lets any response through, for a request whose scripts check the status
    /// only in ways `status` cannot say (`notEquals`, `lessThan`).
    static let anyStatus: [JSONValue] = ["1xx", "2xx", "3xx", "4xx", "5xx"]

    /// `expect` from a script's checks: the status in `status` (a request whose scripts say nothing of it keeps
    /// apitest's default, any 2xx), header and JSON checks in `headers` and `json` while each name or path is used
    /// once, the rest in `assert`. Expected values are data: placeholder syntax in them is escaped
    /// (``TemplateLiteral``).
    static func expectation(_ checks: [ScriptCheck]) -> SuiteDocument.Expectation {
        let checks = checks.map { check in
            var escaped = check
            escaped.argument = TemplateLiteral.escaped(check.argument)
            return escaped
        }
        var expect = SuiteDocument.Expectation()
        var statusOther: [ScriptCheck] = []
        for check in checks {
            if check.query == .status {
                let codes: [JSONValue]? =
                    switch (check.predicate, check.argument) {
                    case ("equals", .integer): [check.argument]
                    case ("oneOf", .array(let items)): items
                    default: nil
                    }
                if let codes, expect.status.isEmpty {
                    expect.status = codes
                    continue
                }
                if let codes, codes == expect.status { continue }
                statusOther.append(check)
                continue
            }
            switch check.query {
            case .header(let name) where check.filters.isEmpty:
                if !expect.headers.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                    expect.headers.append((name, Self.shortForm(check)))
                    continue
                }
            case .jsonpath(let path) where check.filters.isEmpty:
                if !expect.json.contains(where: { $0.path == path }) {
                    expect.json.append((path, Self.shortForm(check)))
                    continue
                }
            default:
                break
            }
            expect.assertions.append(check.generalForm)
        }
        for check in statusOther {
            // A class (`2xx`) cannot be an `assert` argument: a contiguous run of classes is a range.
            var general = check
            if case .array(let items) = check.argument, check.predicate == "oneOf",
                let range = Self.classRange(items)
            {
                general = ScriptCheck(.status, "between", range)
            }
            expect.assertions.append(general.generalForm)
        }
        if !statusOther.isEmpty, expect.status.isEmpty { expect.status = anyStatus }
        return expect
    }

    /// The check as the value of a `headers` or `json` entry: a scalar for equality with a scalar, else
    /// `{predicate: argument}`.
    static func shortForm(_ check: ScriptCheck) -> JSONValue {
        if check.predicate == "equals" {
            switch check.argument {
            case .array, .object: break
            default: return check.argument
            }
        }
        return .object(JSONObject([(key: check.predicate, value: check.argument)]))
    }

    /// `[low, high]` for a list of status codes and classes that forms one range (`["4xx", "5xx"]` is 400–599);
    /// nil otherwise.
    static func classRange(_ items: [JSONValue]) -> JSONValue? {
        var ranges: [(Int64, Int64)] = []
        for item in items {
            switch item {
            case .integer(let code): ranges.append((code, code))
            case .string(let text):
                guard text.count == 3, text.lowercased().hasSuffix("xx"), let digit = Int64(text.prefix(1)) else {
                    return nil
                }
                ranges.append((digit * 100, digit * 100 + 99))
            default: return nil
            }
        }
        ranges.sort { $0.0 < $1.0 }
        guard var (low, high) = ranges.first else { return nil }
        for range in ranges.dropFirst() {
            guard range.0 <= high + 1 else { return nil }
            high = max(high, range.1)
        }
        low = ranges[0].0
        return [.integer(low), .integer(high)]
    }
}
