/// One option of the curl command-line tool: its long name, its short letter and whether it takes an argument
/// (the table, `CurlOption+Table.swift`, is curl 7.88.1's `--help all`).
struct CurlOption: Sendable, Hashable {
    /// The long name without `--` (`data-binary`).
    let long: String
    /// The one-letter name without `-` (`d`), when the option has one.
    let short: Character?
    /// Whether the option takes the next word (or the rest of a short cluster) as its argument.
    let takesArgument: Bool

    /// The option `--long` (`-short`).
    init(_ long: String, _ short: Character?, argument: Bool) {
        self.long = long
        self.short = short
        self.takesArgument = argument
    }

    /// `--long`.
    var name: String { "--" + long }

    /// The options by long name.
    static let byLong: [String: CurlOption] = Dictionary(all.map { ($0.long, $0) }, uniquingKeysWith: { a, _ in a })
    /// The options by short letter.
    static let byShort: [Character: CurlOption] = Dictionary(
        all.compactMap { option in option.short.map { ($0, option) } }, uniquingKeysWith: { a, _ in a })
}
