import Foundation
import Synchronization

/// Where a reporter writes text: a standard stream, a file, or a buffer in tests.
package protocol TextOutput: Sendable {
    func write(_ text: String)
    /// Writes `bytes`, which are UTF-8 text: as `write(String(decoding: bytes, as: UTF8.self))`, without making the
    /// `String` where the output keeps bytes.
    func write(utf8 bytes: [UInt8])
    func flush()
    /// Whether the output is an interactive terminal (enables colour and live progress).
    var isTerminal: Bool { get }
}

extension TextOutput {
    /// The text of `bytes`, written as a `String`.
    package func write(utf8 bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }
}

/// Standard output or standard error, written through a buffer and flushed on demand.
package final class StandardOutput: TextOutput {
    private let descriptor: Int32
    private let buffer = Mutex<[UInt8]>([])
    /// The `errno` of the first write that failed (a full disk, a closed pipe), or `nil`.
    private let failure = Mutex<Int32?>(nil)
    package let isTerminal: Bool

    package static let out = StandardOutput(descriptor: STDOUT_FILENO)
    package static let error = StandardOutput(descriptor: STDERR_FILENO)

    package init(descriptor: Int32) {
        self.descriptor = descriptor
        self.isTerminal = isatty(descriptor) == 1
    }

    package func write(_ text: String) {
        let full = buffer.withLock { bytes -> Bool in
            bytes.append(contentsOf: text.utf8)
            return bytes.count >= 64 * 1024
        }
        if full || isTerminal { flush() }
    }

    package func write(utf8 bytes: [UInt8]) {
        let full = buffer.withLock { buffer -> Bool in
            buffer.append(contentsOf: bytes)
            return buffer.count >= 64 * 1024
        }
        if full || isTerminal { flush() }
    }

    package func flush() {
        buffer.withLock { drain(&$0) }
    }

    /// As `flush()`, unless another thread holds the buffer (writing it out or adding to it): then it returns at
    /// once instead of waiting, possibly for ever when a pipe's reader has stopped reading. For a process about to
    /// exit on a second Ctrl-C.
    package func flushIfIdle() {
        _ = buffer.withLockIfAvailable { drain(&$0) }
    }

    private func drain(_ bytes: inout [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                failure.withLock { $0 = $0 ?? code }
                break
            }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Why text written so far did not all reach the stream (`No space left on device`, `Broken pipe`), or `nil`
    /// when it did. Flushes first, so that everything written has been tried.
    package func writeFailure() -> String? {
        flush()
        return failure.withLock { $0 }.map { String(cString: strerror($0)) }
    }
}

/// Collects text in memory; for tests and for rendering into strings.
package final class BufferedOutput: TextOutput {
    private let storage = Mutex<String>("")
    package let isTerminal: Bool

    package init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    package func write(_ text: String) { storage.withLock { $0 += text } }
    package func flush() {}
    package var text: String { storage.withLock { $0 } }
}
