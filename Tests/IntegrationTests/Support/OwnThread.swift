import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Own thread

/// Runs `body` on a thread of its own and returns what it returns.
///
/// For waits whose timing is part of what a test checks (send a signal the moment a process has installed its
/// handlers, interrupt while a report is being written): the test runner's cooperative threads are few (two on a
/// 2-core CI machine) and other tests' fixtures block them while their servers start, so a `Task.sleep` loop there
/// can resume seconds late. A thread of its own is scheduled by the kernel alone.
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "test.own-thread"
        thread.start()
    }
}

/// Polls `condition` every `interval` until it holds or `timeout` has passed; whether it held. Blocks the calling
/// thread: for ``onOwnThread(_:)``.
func pollUntil(timeout: Duration, interval: Duration = .milliseconds(5), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        if clock.now > deadline { return false }
        Thread.sleep(
            forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
    }
    return true
}

// MARK: - Connections

/// The number of established TCP connections from this machine to 127.0.0.1:`port` (client ends, read from
/// `/proc/net/tcp`): how a test knows that requests are in flight on a server that logs only answers.
func establishedConnections(toPort port: Int) -> Int {
    guard let table = readProcFile("/proc/net/tcp") else { return 0 }
    // Columns: sl local_address rem_address st ...; addresses are HEX_IP:HEX_PORT, state 01 is ESTABLISHED.
    let remote = String(format: "0100007F:%04X", port)
    return table.split(separator: "\n").dropFirst().count { line in
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count > 3 && fields[2] == remote && fields[3] == "01"
    }
}

/// The whole of a file under /proc, read until end of file: such files report size 0, and Foundation's readers stop
/// after the first page (a busy machine's `/proc/net/tcp` is many pages long).
func readProcFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            bytes += chunk[0..<count]
        } else if count == 0 {
            return String(decoding: bytes, as: UTF8.self)
        } else if errno != EINTR {
            return nil
        }
    }
}
