package import APITestJSON
package import APITestSupport
package import Foundation

/// The values placeholders render to: suite variables, `--var` overrides, `env.NAME` entries and captures.
///
/// Values that come from the process environment, and values derived from them, are secret: reports mask them
/// using `secretTexts`.
package struct TemplateContext: Sendable {
    private var values: [String: JSONValue]
    private var secretNames: Set<String>
    /// The names whose values come from a JSON source (captured by JSONPath): compared by their JSON type.
    private var jsonTypedNames: Set<String> = []

    /// An empty context.
    package init() {
        values = [:]
        secretNames = []
    }

    /// A context holding `environment` as `env.NAME` entries, all secret.
    package init(environment: [String: String]) {
        self.init()
        for (name, value) in environment {
            set(TemplateScanner.environmentPrefix + name, .string(value), secret: true)
        }
    }

    // MARK: - Values

    /// Sets (or replaces) a value, such as a capture; `secret` values are masked in reports.
    package mutating func set(_ name: String, _ value: JSONValue, secret: Bool) {
        values[name] = value
        if secret { secretNames.insert(name) } else { secretNames.remove(name) }
        jsonTypedNames.remove(name)
    }

    /// Sets (or replaces) a capture whose value came from a JSON source (`jsonTyped`): a string there is a JSON
    /// string, which a check never reads as the number it spells (see ``isJSONTyped(_:)``).
    package mutating func set(_ name: String, _ value: JSONValue, secret: Bool, jsonTyped: Bool) {
        set(name, value, secret: secret)
        if jsonTyped { jsonTypedNames.insert(name) }
    }

    /// True when `name`'s value came from a JSON source; other values (suite variables, `--var`, CSV cells,
    /// environment variables, captures of text) may be text standing for a number.
    package func isJSONTyped(_ name: String) -> Bool { jsonTypedNames.contains(name) }

    /// The value of `name`, or `nil` when it has none.
    package subscript(name: String) -> JSONValue? { values[name] }

    /// True when `name` has a value.
    package func contains(_ name: String) -> Bool { values[name] != nil }

    /// True when `name` holds a secret.
    package func isSecret(_ name: String) -> Bool { secretNames.contains(name) }

    /// What the name of an environment variable's entry starts with: `env.` (`{{ env.NAME }}`).
    package static let environmentPrefix = TemplateScanner.environmentPrefix

    /// The names that hold a secret, sorted.
    package var secretNamesSorted: [String] { secretNames.sorted() }

    /// The names that have a value, sorted.
    package var names: [String] { values.keys.sorted() }

    /// The value of `name`, or an undefined-variable error located at `location`.
    package func value(named name: String, at location: SourceLocation? = nil) throws(TemplateError) -> JSONValue {
        guard let value = values[name] else { throw TemplateError.undefined(name, at: location) }
        return value
    }

    /// The rendered text of every non-empty secret value, longest first (so masking replaces whole values before
    /// their parts).
    package var secretTexts: [String] {
        let texts = Set(secretNames.compactMap { values[$0].map(Self.text(of:)) }.filter { !$0.isEmpty })
        return texts.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// The rendered text of every non-empty secret value other than the environment's own (`env.NAME`): values
    /// derived from secrets, such as suite variables built from them and captures taken from text that held one.
    package var derivedSecretTexts: [String] {
        secretNames.filter { !$0.hasPrefix(TemplateScanner.environmentPrefix) }
            .compactMap { values[$0].map(Self.text(of:)) }.filter { !$0.isEmpty }
    }

    /// True when rendering `template` uses a secret value.
    package func usesSecret(_ template: Template) -> Bool {
        template.referencedNames.contains(where: isSecret)
    }

    /// True when rendering `value` uses a secret value.
    package func usesSecret(_ value: TemplateValue) -> Bool {
        value.referencedNames.contains(where: isSecret)
    }

    // MARK: - Built-in values

    /// The names of the built-in values, set afresh for every test (and for `setup` and `teardown`).
    package static let builtinNames: Set<String> = [
        "random.uuid", "random.int", "random.hex", "now.iso", "now.date", "now.unix", "now.unixMs",
    ]

    /// Sets the built-in values: a random UUID, a random integer (0 to 2^31 − 1), 16 random hex digits, and the
    /// current time as an ISO-8601 date-time (UTC), a date, Unix seconds and Unix milliseconds. They stay the same
    /// within one test, so a request and its checks see the same values.
    package mutating func setBuiltins(now: Date = Date()) {
        set("random.uuid", .string(UUID().uuidString.lowercased()), secret: false)
        set("random.int", .integer(Int64.random(in: 0...Int64(Int32.max))), secret: false)
        set("random.hex", .string(Self.hex16(UInt64.random(in: 0...UInt64.max))), secret: false)
        // Formatted arithmetically: an ISO8601DateFormatter costs about a millisecond per test (ICU set-up).
        let timestamp = UTCTimestamp(now)
        set("now.iso", .string(timestamp.dateTimeText), secret: false)
        set("now.date", .string(timestamp.dateText), secret: false)
        set("now.unix", .integer(Int64(now.timeIntervalSince1970.rounded(.down))), secret: false)
        set("now.unixMs", .integer(Int64((now.timeIntervalSince1970 * 1000).rounded(.down))), secret: false)
    }

    /// `value` as 16 lower-case hex digits, zero-padded (what `%016llx` prints).
    static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: - Text

    /// How a value appears inside text: strings raw, everything else as compact JSON.
    package static func text(of value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return JSONWriter.string(value)
    }
}
