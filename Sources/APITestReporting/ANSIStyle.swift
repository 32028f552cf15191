/// ANSI colours for terminal output, or nothing when colour is off.
public struct ANSIStyle: Sendable {
    public let enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Whether to colour `output`: only on a terminal, never when `NO_COLOR` is set (https://no-color.org),
    /// never with `--no-color`.
    public static func shouldColor(output: TextOutput, environment: [String: String], disabled: Bool) -> Bool {
        if disabled { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return output.isTerminal
    }

    public func green(_ text: String) -> String { wrap(text, "32") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func bold(_ text: String) -> String { wrap(text, "1") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
