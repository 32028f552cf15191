/// How text from a server or an imported file is shown where it must stay on its line and read in order (a
/// message, a comment of a suite or a script, a report line): the one escaper every display uses.
///
/// A scalar with a replacement is written as it (a short form such as `\n`, a space, an entity, or itself to keep
/// it); any other scalar of the escaped ``Characters`` is written as `\u{1B}` (hexadecimal, upper case); the rest
/// stays as it is. What differs between displays is only which characters they escape and which replacements they
/// use.
package struct DisplayEscaping: Sendable {
    // MARK: - Characters

    /// The kinds of characters that do not show as themselves on a line.
    package struct Characters: OptionSet, Sendable {
        package let rawValue: UInt8

        /// A set of kinds from its raw bits.
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The line breaks: LF, VT, FF, CR, NEL, and the line and paragraph separators U+2028 and U+2029.
        package static let lineBreaks = Characters(rawValue: 1 << 0)
        /// The C0 controls (tab and the line breaks among them), DEL and the C1 controls.
        package static let controls = Characters(rawValue: 1 << 1)
        /// Unicode's Bidi_Control characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which reorder
        /// how the rest of a line reads.
        package static let bidiControls = Characters(rawValue: 1 << 2)
        /// The byte-order mark U+FEFF, a zero-width no-break space.
        package static let byteOrderMark = Characters(rawValue: 1 << 3)
        /// The noncharacters U+FFFE and U+FFFF, which XML cannot carry.
        package static let noncharacters = Characters(rawValue: 1 << 4)
        /// Every non-ASCII scalar that ``ShellWord/isVisible(_:)`` finds does not show as itself (C1 controls,
        /// format characters, separators, private-use, unassigned and noncharacters).
        package static let invisible = Characters(rawValue: 1 << 5)

        /// Whether `scalar` is of one of the kinds in this set.
        package func contains(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if contains(.controls), value < 0x20 || (0x7F...0x9F).contains(value) { return true }
            if contains(.lineBreaks) {
                switch value {
                case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
                default: break
                }
            }
            if contains(.bidiControls) {
                switch value {
                case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
                default: break
                }
            }
            if contains(.byteOrderMark), value == 0xFEFF { return true }
            if contains(.noncharacters), value == 0xFFFE || value == 0xFFFF { return true }
            if contains(.invisible), value > 0x7F, !ShellWord.isVisible(scalar) { return true }
            return false
        }
    }

    // MARK: - Escaping

    /// The kinds of characters written as `\u{..}` (or as their replacement).
    package let characters: Characters
    /// What a scalar is written as instead of itself, whatever its kind; the scalar alone keeps it.
    package let replacements: [Unicode.Scalar: String]
    /// Whether text of printable ASCII alone needs nothing (no replacement is printable ASCII).
    private let keepsPrintableASCII: Bool

    /// An escaper of `characters`, with `replacements` taking precedence.
    package init(_ characters: Characters, replacing replacements: [Unicode.Scalar: String] = [:]) {
        self.characters = characters
        self.replacements = replacements
        keepsPrintableASCII = !replacements.keys.contains { (0x20..<0x7F).contains($0.value) }
    }

    /// Whether `scalar` is written otherwise than as itself.
    package func changes(_ scalar: Unicode.Scalar) -> Bool {
        if let replacement = replacements[scalar] { return !replacement.unicodeScalars.elementsEqual([scalar]) }
        return characters.contains(scalar)
    }

    /// `text` with every scalar this escaper changes written as its replacement or `\u{..}`; `text` itself when
    /// nothing needs it.
    package func escape(_ text: String) -> String {
        // Most text needs nothing: hand it back rather than build a copy scalar by scalar (a line per test).
        if keepsPrintableASCII, text.withUTF8Bytes({ $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }) { return text }
        if !text.unicodeScalars.contains(where: changes) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replacement = replacements[scalar] {
                result += replacement
            } else if characters.contains(scalar) {
                result += Self.unicodeEscape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `\u{1B}`: the visible form of `scalar`, its code point in upper-case hexadecimal.
    package static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }
}
