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

        /// The buffer as text (valid UTF-8: it holds only the bytes of strings).
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

}
