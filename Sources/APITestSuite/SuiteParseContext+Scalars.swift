import APITestJSON
import APITestSupport
import APITestYAML

/// Scalars of the file being parsed, typed for the setting that holds them; a wrong type is reported.
extension SuiteParseContext {
    /// The text of a scalar for a text field: strings as written, numbers and booleans as written in the source.
    /// Reports null, maps and lists.
    func text(_ node: YAMLNode, for name: String) -> String? {
        guard let scalar = scalar(node), !YAMLScalar.isNull(scalar) else {
            typeError(expected: "a string", for: name, found: node)
            return nil
        }
        return scalar.string
    }

    /// A boolean (`true`/`false`).
    func bool(_ node: YAMLNode, for name: String) -> Bool? {
        guard let scalar = scalar(node), case .bool(let value) = YAMLScalar(scalar) else {
            typeError(expected: "true or false", for: name, found: node)
            return nil
        }
        return value
    }

    /// An integer in `range`.
    func integer(_ node: YAMLNode, for name: String, in range: ClosedRange<Int>) -> Int? {
        guard let scalar = scalar(node), case .integer(let value) = YAMLScalar(scalar) else {
            typeError(expected: "a whole number", for: name, found: node)
            return nil
        }
        guard let int = Int(exactly: value), range.contains(int) else {
            error("'\(name)' must be between \(range.lowerBound) and \(range.upperBound), found \(value)", at: node)
            return nil
        }
        return int
    }

    /// A size in bytes: a whole number of bytes, or text with a unit (`200MB`, `64MiB`); `0` is allowed.
    func byteSize(_ node: YAMLNode, for name: String) -> Int? {
        let expected = "a size (a number of bytes, or like 200MB or 64MiB)"
        guard let scalar = scalar(node) else {
            typeError(expected: expected, for: name, found: node)
            return nil
        }
        switch YAMLScalar(scalar) {
        case .integer(let value):
            guard value >= 0, let bytes = Int(exactly: value) else {
                error("'\(name)' cannot be negative, found \(value)", at: node)
                return nil
            }
            return bytes
        case .string(let text):
            do {
                return try ByteSize(parsing: text).bytes
            } catch {
                self.error("\(error.message) for '\(name)'", at: node)
                return nil
            }
        case .number:
            error("'\(name)' is too large, found \(scalar.string)", at: node)
            return nil
        case .double, .null, .bool:
            typeError(expected: expected, for: name, found: node)
            return nil
        }
    }

    /// A positive duration: `250ms`, `10s`, `1.5s`, `2m`, `1h`, or a bare number of seconds.
    func duration(_ node: YAMLNode, for name: String) -> Duration? {
        guard let scalar = scalar(node) else {
            typeError(expected: "a duration (like 10s)", for: name, found: node)
            return nil
        }
        let parsed: Duration
        do {
            switch YAMLScalar(scalar) {
            case .integer(let seconds): parsed = try DurationParser.duration(fromSeconds: Double(seconds))
            case .double(let seconds) where !seconds.isFinite:
                // `.inf`, `.nan` and `1e400` are neither negative nor a duration.
                error("'\(name)' must be a finite duration, found \(scalar.string)", at: node)
                return nil
            case .double(let seconds): parsed = try DurationParser.duration(fromSeconds: seconds)
            case .number(let seconds): parsed = try DurationParser.duration(fromSeconds: seconds.doubleValue)
            case .string(let text): parsed = try DurationParser.parse(text)
            case .null, .bool:
                typeError(expected: "a duration (like 10s)", for: name, found: node)
                return nil
            }
        } catch {
            self.error("\(error.message) for '\(name)'", at: node)
            return nil
        }
        guard parsed > .zero else {
            error("'\(name)' must be longer than zero", at: node)
            return nil
        }
        return parsed
    }

    /// A name for a variable or capture: `[A-Za-z_][A-Za-z0-9_.-]*`, not starting with `env.`.
    func checkVariableName(_ name: String, at node: YAMLNode, what: String) -> Bool {
        if !TemplateScanner.isValidName(name) {
            error("invalid \(what) name '\(name)'; names match [A-Za-z_][A-Za-z0-9_.-]*", at: node)
            return false
        }
        if name.hasPrefix(TemplateScanner.environmentPrefix) {
            error("\(what) names cannot start with 'env.', which names environment variables", at: node)
            return false
        }
        return true
    }
}
