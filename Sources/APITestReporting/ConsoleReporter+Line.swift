import APITestResults
import APITestSupport

// MARK: - A test's line as bytes

extension ConsoleReporter {
    /// A test's text as one byte buffer: its line's parts are appended as bytes, not joined as strings (a passing
    /// test is one line, written for every test of a run).
    struct LineBuffer {
        private(set) var bytes: [UInt8] = []

        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        mutating func append(_ other: [UInt8]) {
            bytes.append(contentsOf: other)
        }

        mutating func append(byte: UInt8) {
            bytes.append(byte)
        }

        /// `text` as `ReportText.terminalLine` writes it: as it is when it is printable ASCII (nothing to escape),
        /// else escaped.
        mutating func appendTerminalLine(_ text: String) {
            let appended =
                text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                    for byte in utf8 where byte < 0x20 || byte > 0x7E { return false }
                    bytes.append(contentsOf: utf8)
                    return true
                } ?? false
            if !appended { append(ReportText.terminalLine(text)) }
        }

        /// `DurationFormatter.format(duration)`: its most common form (`N ms`, from 10 ms to under a second) as
        /// digits, without making a `String`; any other through the formatter.
        mutating func append(duration: Duration) {
            let total = duration.inSeconds
            if total >= 0.01, total < 1 {
                let milliseconds = Int((total * 1e3).rounded())
                if milliseconds < 1000 {
                    append(decimal: milliseconds)
                    bytes.append(UInt8(ascii: " "))
                    bytes.append(UInt8(ascii: "m"))
                    bytes.append(UInt8(ascii: "s"))
                    return
                }
            }
            append(DurationFormatter.format(duration))
        }

        /// The decimal digits of `value`, from 0 to 999.
        private mutating func append(decimal value: Int) {
            if value >= 100 { bytes.append(UInt8(ascii: "0") + UInt8(value / 100)) }
            if value >= 10 { bytes.append(UInt8(ascii: "0") + UInt8(value / 10 % 10)) }
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
        }

        /// The buffer as text (valid UTF-8: it holds only the bytes of strings).
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

}
