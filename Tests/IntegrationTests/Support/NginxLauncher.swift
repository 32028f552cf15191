import Foundation

/// Starts nginx in the foreground on loopback sockets bound before any port is chosen: `Fixtures/
/// nginx_inherited_sockets.py` binds and listens on 127.0.0.1:0 as many times as needed, prints the ports, and hands
/// the sockets to nginx (its NGINX variable) once the configuration for those ports is written. No other process can
/// take a port in between, and readiness is one request that waits in the backlog until nginx answers it.
enum NginxLauncher {
    /// nginx running the `server` blocks `servers(ports)` (written with the rest of the configuration to
    /// `directory/nginx.conf`: one worker in the foreground, logs, pid and temporary files in `directory`) on
    /// `portCount` ports bound for it, once it answers on the first; the process and its ports. `errorLogLevel`
    /// (`notice`, ...) sets the error log's level (nginx's default, `error`, when nil); `accessLog` writes
    /// `directory/access.log`.
    static func start(
        in directory: URL, portCount: Int, errorLogLevel: String? = nil, accessLog: Bool = false,
        servers: ([Int]) -> String
    ) throws -> (Process, [Int]) {
        let errorLog = directory.appendingPathComponent("launcher.err")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", FaultServer.scriptURL("nginx_inherited_sockets.py").path, String(portCount)]
        let input = Pipe()
        let announcement = Pipe()
        process.standardInput = input
        process.standardOutput = announcement
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        func failure(_ reason: String) -> Error {
            stopProcess(process)
            process.waitUntilExit()
            let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            let nginxErrors =
                (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            return FixtureError(
                "nginx did not start: \(reason); launcher stderr: \(errors.suffix(2000)); "
                    + "error.log: \(nginxErrors.suffix(2000))")
        }
        var buffer = Data()
        let handle = announcement.fileHandleForReading
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self).prefix { $0 != "\n" }
        let ports = line.split(separator: " ").compactMap { Int($0) }
        guard ports.count == portCount, ports.allSatisfy({ $0 > 0 }) else {
            throw failure("the launcher printed '\(line.prefix(200))'")
        }
        // nginx writes nothing more here; a drain keeps it from ever blocking on the pipe.
        _ = PipeDrain(handle)
        let configFile = directory.appendingPathComponent("nginx.conf")
        let config = """
            worker_processes 1;
            daemon off;
            error_log \(directory.path)/error.log\(errorLogLevel.map { " " + $0 } ?? "");
            pid \(directory.path)/nginx.pid;
            events { worker_connections 256; }
            http {
              access_log \(accessLog ? directory.path + "/access.log" : "off");
              client_body_temp_path \(directory.path);
            \(servers(ports))
            }
            """
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        try input.fileHandleForWriting.write(contentsOf: Data((configFile.path + "\n").utf8))
        try input.fileHandleForWriting.close()
        guard answers(port: ports[0]), process.isRunning else { throw failure("it exited") }
        return (process, ports)
    }

    /// Whether a request to 127.0.0.1:`port` is answered or closed by a server (a TLS listener answers a plain
    /// request with a 400 or closes it), waiting in the backlog until nginx serves; false when the connection is
    /// refused or reset, as it is when nginx exits before accepting it.
    private static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return false }
        let request = Array("GET / HTTP/1.0\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { return false }
        var byte: UInt8 = 0
        while true {
            let count = recv(fd, &byte, 1, 0)
            if count < 0 && errno == EINTR { continue }
            return count >= 0
        }
    }
}
