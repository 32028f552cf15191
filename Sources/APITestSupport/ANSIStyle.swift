/// ANSI colours for terminal output, or nothing when colour is off: the one implementation, used by the console
/// reporter and the diagnostic renderer alike.
package struct ANSIStyle: Sendable {
    /// An SGR parameter: a colour, boldness, or both.
    package enum Code: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
        case boldRed = "1;31"
        case boldYellow = "1;33"
        case boldBlue = "1;34"
    }

    /// Whether styles are applied; when false every method returns its text unchanged.
    package let enabled: Bool

    /// A style that colours when `enabled`.
    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Whether to colour `output`: only on a terminal, never when `NO_COLOR` is set (https://no-color.org),
    /// never with `--no-color`.
    package static func shouldColor(output: TextOutput, environment: [String: String], disabled: Bool) -> Bool {
        if disabled { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return output.isTerminal
    }

    /// `text` in green.
    package func green(_ text: String) -> String { paint(text, .green) }
    /// `text` in red.
    package func red(_ text: String) -> String { paint(text, .red) }
    /// `text` in yellow.
    package func yellow(_ text: String) -> String { paint(text, .yellow) }
    /// `text` in cyan.
    package func cyan(_ text: String) -> String { paint(text, .cyan) }
    /// `text` dimmed.
    package func dim(_ text: String) -> String { paint(text, .dim) }
    /// `text` in bold.
    package func bold(_ text: String) -> String { paint(text, .bold) }

    /// `text` with `code` applied and reset after it.
    package func paint(_ text: String, _ code: Code) -> String {
        enabled ? "\u{1B}[\(code.rawValue)m\(text)\u{1B}[0m" : text
    }
}
