import Foundation

/// Starts nginx in the foreground with a configuration written for free loopback ports, trying new ports a few
/// times when another process takes one first.
enum NginxLauncher {
    /// nginx running the `server` blocks `servers(ports)` (written with the rest of the configuration to
    /// `directory/nginx.conf`: one worker in the foreground, logs, pid and temporary files in `directory`) once every
    /// one of `portCount` free ports accepts connections; the process and its ports.
    static func start(in directory: URL, portCount: Int, servers: ([Int]) -> String) throws -> (Process, [Int]) {
        var lastError: Error?
        for _ in 0..<5 {
            let ports = try (0..<portCount).map { _ in try freePort() }
            let configFile = directory.appendingPathComponent("nginx.conf")
            let config = """
                worker_processes 1;
                daemon off;
                error_log \(directory.path)/error.log;
                pid \(directory.path)/nginx.pid;
                events { worker_connections 256; }
                http {
                  access_log off;
                  client_body_temp_path \(directory.path);
                \(servers(ports))
                }
                """
            try config.write(to: configFile, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            process.arguments = ["-c", configFile.path, "-p", directory.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if waitForListeners(ports, process: process) { return (process, ports) }
            stopProcess(process, signal: SIGTERM)
            lastError = CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx did not start"])
        }
        throw lastError ?? CocoaError(.fileReadUnknown)
    }

    /// Whether every port accepts connections within 5 s while the process runs.
    private static func waitForListeners(_ ports: [Int], process: Process) -> Bool {
        for _ in 0..<100 {
            guard process.isRunning else { return false }
            if ports.allSatisfy(acceptsConnections(port:)) { return true }
            usleep(50_000)
        }
        return false
    }
}
