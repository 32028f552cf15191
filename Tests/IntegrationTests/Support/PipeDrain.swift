import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - PipeDrain

/// Reads a pipe to its end on a dedicated thread, so the reader never blocks Swift's cooperative pool.
final class PipeDrain: Sendable {
    private let done = OneShotValue<Data>()
    private let collected = SyncBox(Data())

    /// Starts reading `handle` at once.
    init(_ handle: FileHandle, onChunk: (@Sendable (Data) -> Void)? = nil) {
        let collected = self.collected
        let done = self.done
        let thread = Thread {
            let descriptor = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let chunk = Data(buffer[0..<count])
                collected.withLock { $0.append(chunk) }
                onChunk?(chunk)
            }
            try? handle.close()
            done.fulfill(collected.withLock { $0 })
        }
        thread.start()
    }

    /// Everything read so far (the pipe may still be open).
    var soFar: Data { collected.withLock { $0 } }

    /// Everything read, once the writer has closed its end.
    func result() async -> Data { await done.wait() }
}
