import Foundation

/// moto (from PyPI, installed by `scripts/install-deps.sh`) in server mode on a free loopback port, with IAM
/// authentication enforced: a real AWS Signature Version 4 verifier nobody here wrote. Its first three requests
/// (`INITIAL_NO_AUTH_ACTION_COUNT`) create, through boto3, an IAM user whose key every later request must be signed
/// with. Stopped on `stop()`/deinit.
final class MotoServer: @unchecked Sendable {
    let port: Int
    /// The IAM user's access key id and secret access key.
    let accessKey: String
    let secretKey: String
    private let process: Process

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init() async throws {
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<300 where process.isRunning && !acceptsConnections(port: port) { usleep(50_000) }
        guard process.isRunning, acceptsConnections(port: port) else {
            stopProcess(process)
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey: "moto did not start (pip install moto boto3: scripts/install-deps.sh)"
                ])
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/moto_iam_user.py")
        let setup = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "http://127.0.0.1:\(port)"])
        let words = setup.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        guard setup.exitCode == 0, words.count == 2 else {
            stopProcess(process)
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "moto IAM set-up failed: \(setup.stderr)"])
        }
        self.port = port
        self.process = process
        self.accessKey = words[0]
        self.secretKey = words[1]
    }

    func stop() { stopProcess(process) }

    deinit { stop() }
}
