/// A number of bytes written the way people write sizes: `200MB`, `64MiB`, `1.5 GB`, `512KiB`, `100B` or a bare
/// number of bytes (`1048576`). Decimal units (`KB`, `MB`, `GB`, `TB`) are powers of 1000, binary ones (`KiB`,
/// `MiB`, `GiB`, `TiB`) powers of 1024; units are matched without regard to case (`mb`, `MiB`, `mib`).
package struct ByteSize: Sendable, Hashable, CustomStringConvertible {
    /// Why a size could not be parsed.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text as given.
        package var text: String
        package var message: String
        package var description: String { message }
    }

    /// The number of bytes.
    package var bytes: Int

    package init(bytes: Int) {
        self.bytes = max(0, bytes)
    }

    /// The units accepted after a number, longest first so that `MiB` is not read as `B`.
    private static let units: [(suffix: String, factor: Double)] = [
        ("kib", 1024), ("mib", 1024 * 1024), ("gib", 1024 * 1024 * 1024), ("tib", 1024 * 1024 * 1024 * 1024),
        ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12), ("b", 1),
    ]

    /// Parses `text` into a size.
    ///
    /// Whitespace around the text and between number and unit is allowed; the number is a plain decimal (`64`,
    /// `1.5`), no sign or exponent; the result is rounded to whole bytes.
    package init(parsing text: String) throws(ParseError) {
        let trimmed = text.trimmingWhitespace()
        let lower = trimmed.lowercased()
        var number = Substring(lower)
        var factor = 1.0
        for unit in Self.units where lower.hasSuffix(unit.suffix) {
            number = lower.dropLast(unit.suffix.count)
            factor = unit.factor
            break
        }
        let digits = String(number).trimmingWhitespace()
        guard digits.isPlainDecimal, let value = Double(digits) else {
            throw ParseError(
                text: text,
                message: "invalid size '\(text)'; use a number of bytes or a number with a unit (500KB, 200MB, "
                    + "64MiB, 2GiB)")
        }
        let bytes = (value * factor).rounded()
        guard bytes.isFinite, bytes < 9e18 else {
            throw ParseError(text: text, message: "size '\(text)' is too large")
        }
        self.bytes = Int(bytes)
    }

    /// `64 MiB (67108864 bytes)`, `200 MB (200000000 bytes)`, `1000 bytes`: the size in the largest unit that
    /// divides it exactly, binary first, with the exact count after it.
    package var description: String {
        for (name, factor) in [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor) \(name) (\(bytes) bytes)"
        }
        for (name, factor) in [("TB", 1_000_000_000_000), ("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1000)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor) \(name) (\(bytes) bytes)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
