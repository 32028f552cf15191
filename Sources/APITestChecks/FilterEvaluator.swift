import APITestHTTP
import APITestJSON
import APITestSecrets
import APITestSuite
import Foundation

/// Applies the filters between a query and a predicate.
struct FilterEvaluator: Sendable {
    /// The time `daysAfterNow` and `daysBeforeNow` count from.
    var now: Date = Date()
    /// Whether the values are credentials (a cookie, an `Authorization` header): problems then never show them.
    var concealsValues = false

    // MARK: - Filters

    /// `value` through `filter`; nothing stays nothing (so `exists: false` still works after filters).
    func apply(_ filter: Filter, to value: JSONValue?) -> Result<JSONValue?, CheckProblem> {
        guard let value else { return .success(nil) }
        func problem(_ needs: String) -> Result<JSONValue?, CheckProblem> {
            .failure(
                CheckProblem("filter '\(filter)' needs \(needs), got \(value.typeName) \(short(value))"))
        }
        switch filter {
        case .count:
            switch value {
            case .array(let items): return .success(.integer(Int64(items.count)))
            case .object(let object): return .success(.integer(Int64(object.count)))
            case .string(let text): return .success(.integer(Int64(text.count)))
            default: return problem("an array, an object or a string")
            }
        case .first, .last, .nth:
            guard case .array(let items) = value else { return problem("an array") }
            switch filter {
            case .first: return .success(items.first)
            case .last: return .success(items.last)
            case .nth(let index):
                let position = index < 0 ? items.count + index : index
                guard items.indices.contains(position) else { return .success(JSONValue?.none) }
                return .success(items[position])
            default: return .success(nil)
            }
        case .toInt:
            // One conversion for the filter and the function: exact, never a trap (a double beyond 64 bits, NaN).
            guard let whole = try? ExpressionFunctions.toInt(value) else {
                return problem("a number or a numeric string")
            }
            return .success(whole)
        case .toFloat:
            switch value {
            case .integer, .double, .number: return .success(value.doubleValue.map(JSONValue.double))
            case .string(let text):
                guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                    return problem("a number or a numeric string")
                }
                return .success(.double(number))
            default: return problem("a number or a numeric string")
            }
        case .toString:
            return .success(.string(TemplateContext.text(of: value)))
        case .lowercase, .uppercase, .trim, .split, .replace, .regex, .base64Decode, .base64Encode, .urlDecode,
            .urlEncode:
            guard case .string(let text) = value else { return problem("a string") }
            return applyText(filter, to: text)
        case .jsonpath(let path):
            let document: JSONValue
            if case .string(let text) = value {
                do {
                    document = try JSONParser.parse(Data(text.utf8))
                } catch {
                    return .failure(CheckProblem("filter '\(filter)': the string is not JSON (\(error))"))
                }
            } else {
                document = value
            }
            let nodes = path.query(document)
            return .success(path.isSingular ? nodes.first : .array(nodes))
        case .xpath(let expression):
            guard case .string(let text) = value else { return problem("a string holding XML") }
            let document: XPathDocument
            do {
                document = try XPathDocument.parse(text)
            } catch {
                return .failure(CheckProblem("filter '\(filter)': the string is not XML (\(error))"))
            }
            return QueryEvaluator.xpath(expression, in: document).map { found in
                switch found {
                case .one(let value): value
                case .each(let values): .array(values)
                case .noNodes: JSONValue?.none
                }
            }
        case .daysAfterNow, .daysBeforeNow:
            guard case .string(let text) = value, let date = DateParser.parse(text) else {
                return problem("a date (ISO-8601 or an HTTP date)")
            }
            let seconds = filter == .daysAfterNow ? date.timeIntervalSince(now) : now.timeIntervalSince(date)
            return .success(.integer(Int64((seconds / 86_400).rounded(.down))))
        case .function(let name):
            guard let function = ExpressionFunctions.table[name] else { return problem("a known function") }
            do throws(ExpressionFunctions.Problem) {
                return .success(try function.compute([value]))
            } catch {
                return .failure(
                    CheckProblem(concealsValues ? "filter '\(name)' could not be applied" : "filter \(error.message)"))
            }
        }
    }

    private func applyText(_ filter: Filter, to text: String) -> Result<JSONValue?, CheckProblem> {
        switch filter {
        case .lowercase: return .success(.string(text.lowercased()))
        case .uppercase: return .success(.string(text.uppercased()))
        case .trim: return .success(.string(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        case .split(let separator):
            return .success(.array(text.components(separatedBy: separator).map(JSONValue.string)))
        case .replace(let pattern, let replacement):
            do throws(RegularExpression.ReplaceFailure) {
                return .success(
                    .string(
                        try pattern.replacingMatches(
                            in: text, with: replacement, limit: ExpressionFunctions.maximumTextBytes)))
            } catch {
                return .failure(CheckProblem("filter '\(filter)': \(error.sentence)"))
            }
        case .regex(let regex):
            return .success(
                regex.firstMatch(in: text, group: regex.numberOfCaptureGroups > 0 ? 1 : 0).map(JSONValue.string))
        case .base64Decode:
            guard let bytes = Base64.decode(Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)) else {
                return .failure(CheckProblem("filter 'base64Decode': \(short(.string(text))) is not base64"))
            }
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                return .failure(CheckProblem("filter 'base64Decode': the decoded bytes are not UTF-8 text"))
            }
            return .success(.string(decoded))
        case .base64Encode:
            return .success(.string(Data(text.utf8).base64EncodedString()))
        case .urlDecode:
            guard let decoded = text.removingPercentEncoding else {
                return .failure(CheckProblem("filter 'urlDecode': \(short(.string(text))) has a bad % escape"))
            }
            return .success(.string(decoded))
        case .urlEncode:
            return .success(.string(text.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? text))
        default:
            return .success(.string(text))
        }
    }

    /// RFC 3986 unreserved characters, which `urlEncode` leaves as they are.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    // MARK: - Descriptions

    /// A value as a problem shows it: whole (the executor masks secrets, then shortens), or hidden for credentials.
    private func short(_ value: JSONValue) -> String {
        concealsValues ? SecretMasker.mask : JSONWriter.string(value)
    }
}
