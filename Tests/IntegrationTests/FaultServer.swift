import Foundation

/// Starts `Fixtures/fault_server.py` (a misbehaving HTTP/1.1 server), or another script of `Fixtures/` that prints
/// its port at the end of its first line, on a free port; stopped on `stop()`/deinit.
final class FaultServer: @unchecked Sendable {
    let port: Int
    let logFile: URL
    private let process: Process

    var baseURL: String { "http://127.0.0.1:\(port)" }

    static var scriptURL: URL { scriptURL("fault_server.py") }

    /// The fixture script `name`.
    static func scriptURL(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name)
    }

    init(script: String = "fault_server.py") throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("fault-\(UUID().uuidString).log")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptURL(script).path, "--port", "0", "--log", logFile.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        let handle = pipe.fileHandleForReading
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self)
        guard let last = line.split(separator: " ").last,
            let port = Int(last.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "fault server said: \(line)"])
        }
        self.port = port
    }

    /// The request lines the server has received so far.
    var receivedRequestLines: [String] {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: logFile)
        // Scripts that keep state write it beside the log (stateful_pets.py's `<log>.users`).
        try? FileManager.default.removeItem(atPath: logFile.path + ".users")
    }

    deinit { stop() }
}

/// A TCP port on 127.0.0.1 that is free now, for a server the test is about to start on it (bound, then closed).
func freePort() throws -> Int {
    try closedPort(keepingItBound: false)
}

/// A TCP port on 127.0.0.1 that nothing listens on: bound and never listened on, and kept bound for the rest of
/// the test process, so that a server another test starts at the same time cannot take it (connecting is refused).
func closedPort(keepingItBound: Bool = true) throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { if !keepingItBound { close(fd) } }
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else {
        close(fd)
        throw POSIXError(.EADDRINUSE)
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Whether something accepts TCP connections on 127.0.0.1:`port` now.
func acceptsConnections(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = loopbackAddress(port: port)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// The IPv4 address 127.0.0.1:`port`.
func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

/// Stops a helper server with `signal` (SIGKILL by default: these fixtures hold nothing worth a graceful stop),
/// escalating to SIGKILL after two seconds. Returns at once: a thread of its own waits for the exit, so a test's
/// `defer { server.stop() }` never holds one of the test runner's few cooperative threads (on a 2-core machine, two
/// such waits stall every other test's `await`).
func stopProcess(_ process: Process, signal: Int32 = SIGKILL) {
    guard process.isRunning else { return }
    let pid = process.processIdentifier
    kill(pid, signal)
    guard signal != SIGKILL else { return }
    let reaper = Thread {
        if !pollUntil(timeout: .seconds(2), { !process.isRunning }) { kill(pid, SIGKILL) }
    }
    reaper.name = "test.reaper"
    reaper.start()
}
