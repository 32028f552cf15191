import Foundation

/// moto (from PyPI, installed by `scripts/install-deps.sh`) in server mode on a free loopback port, with IAM
/// authentication enforced: a real AWS Signature Version 4 verifier nobody here wrote. Its first five requests
/// (`INITIAL_NO_AUTH_ACTION_COUNT`) create, through boto3 (`Fixtures/moto_credentials.py`), an IAM user whose key
/// every later request must be signed with, and a role the user then assumes (temporary credentials with a session
/// token). Stopped on `stop()`/deinit.
final class MotoServer: @unchecked Sendable {
    let port: Int
    /// The IAM user's access key id and secret access key.
    let accessKey: String
    let secretKey: String
    /// The assumed role's temporary access key id, secret key and session token.
    let roleAccessKey: String
    let roleSecretKey: String
    let sessionToken: String
    private let process: Process

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Port 0: the server binds a free port itself and names it (" * Running on http://127.0.0.1:PORT"), so no
        // other fixture can take it between a probe and the bind.
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "5"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = pipe
        try process.run()
        var output = Data()
        var port: Int?
        let handle = pipe.fileHandleForReading
        while port == nil {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
            let text = String(decoding: output, as: UTF8.self)
            if let range = text.range(of: "Running on http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if text[range.upperBound...].dropFirst(digits.count).first?.isNewline == true { port = Int(digits) }
            }
        }
        guard let port, process.isRunning else {
            stopProcess(process)
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "moto did not start (pip install moto boto3: scripts/install-deps.sh): "
                        + String(decoding: output, as: UTF8.self)
                ])
        }
        // The rest of its log is read away, so that the server never blocks on a full pipe.
        let drain = Thread { while !handle.availableData.isEmpty {} }
        drain.start()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/moto_credentials.py")
        let setup = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "http://127.0.0.1:\(port)"])
        let keys = (try? JSONSerialization.jsonObject(with: Data(setup.stdout.utf8))) as? [String: String] ?? [:]
        guard setup.exitCode == 0, let accessKey = keys["accessKey"], let secretKey = keys["secretKey"],
            let roleAccessKey = keys["roleAccessKey"], let roleSecretKey = keys["roleSecretKey"],
            let sessionToken = keys["sessionToken"]
        else {
            stopProcess(process)
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "moto IAM set-up failed: \(setup.stderr)"])
        }
        self.port = port
        self.process = process
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.roleAccessKey = roleAccessKey
        self.roleSecretKey = roleSecretKey
        self.sessionToken = sessionToken
    }

    func stop() { stopProcess(process) }

    deinit { stop() }
}
