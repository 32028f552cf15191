import Foundation

/// A certificate chain made with the `openssl` command at test time: root → intermediate → leaf for `localhost`
/// only (not 127.0.0.1, so host-name checks can be seen failing).
struct TestCertificates {
    let directory: URL
    var rootCertificate: URL { directory.appendingPathComponent("root.pem") }
    /// The leaf followed by the intermediate, as a server sends them.
    var serverChain: URL { directory.appendingPathComponent("chain.pem") }
    var leafKey: URL { directory.appendingPathComponent("leaf.key") }

    static func make() throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = """
            set -e
            cd '\(directory.path)'
            cat > ca.ext <<'X'
            basicConstraints=critical,CA:true
            keyUsage=critical,keyCertSign,cRLSign
            X
            cat > leaf.ext <<'X'
            basicConstraints=critical,CA:false
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            subjectAltName=DNS:localhost
            X
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout root.key -out root.pem \
              -days 30 -subj '/CN=apitest test root' -addext basicConstraints=critical,CA:true \
              -addext keyUsage=critical,keyCertSign,cRLSign
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout inter.key -out inter.csr \
              -subj '/CN=apitest test intermediate'
            openssl x509 -req -in inter.csr -CA root.pem -CAkey root.key -CAcreateserial -out inter.pem -days 30 \
              -extfile ca.ext
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key -out leaf.csr \
              -subj '/CN=localhost'
            openssl x509 -req -in leaf.csr -CA inter.pem -CAkey inter.key -CAcreateserial -out leaf.pem -days 30 \
              -extfile leaf.ext
            cat leaf.pem inter.pem > chain.pem
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl failed to make certificates"])
        }
        return TestCertificates(directory: directory)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// nginx serving HTTPS with HTTP/2 on 127.0.0.1, with a chain from `TestCertificates`; stopped on `stop()`.
final class TLSServer: @unchecked Sendable {
    let port: Int
    let certificates: TestCertificates
    private let process: Process
    private let directory: URL

    var baseURL: String { "https://localhost:\(port)" }

    init(certificates: TestCertificates) throws {
        self.certificates = certificates
        directory = certificates.directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (process, ports) = try NginxLauncher.start(in: directory, portCount: 1) { [certificates] ports in
            """
              server {
                listen 127.0.0.1:\(ports[0]) ssl http2;
                ssl_certificate \(certificates.serverChain.path);
                ssl_certificate_key \(certificates.leafKey.path);
                location / { default_type application/json; return 200 '{"tls":true}'; }
              }
            """
        }
        self.process = process
        self.port = ports[0]
    }

    func stop() {
        stopProcess(process, signal: SIGTERM) // nginx's fast shutdown also stops its worker
    }

    deinit { stop() }
}
