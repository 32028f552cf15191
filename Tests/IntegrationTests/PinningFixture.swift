import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Certificates made with the `openssl` command at test time for the pinning tests, and nginx serving them on
/// 127.0.0.1, one port per chain.
///
/// root → intermediate → leaf (`CN=localhost`, `DNS:localhost`); a self-signed leaf for localhost; an expired
/// leaf; a leaf valid only from 2099; a leaf for another host; a second key with the leaf's subject; a leaf for `IP:127.0.0.1`; and an
/// unrelated self-signed certificate that no server uses. `pins` holds each certificate's SPKI pin computed by the
/// openssl pipeline (`x509 -pubkey | pkey -pubin -outform der | dgst -sha256 -binary | base64`).
final class PinningFixture: @unchecked Sendable {
    /// The served chains, by name: the port's name and the files nginx serves.
    static let servedChains: [(name: String, chain: String, key: String)] = [
        ("chain", "chain.pem", "leaf.key"),
        ("selfSigned", "selfsigned.pem", "selfsigned.key"),
        ("expired", "expired-chain.pem", "expired.key"),
        ("otherHost", "other-chain.pem", "other.key"),
        ("secondKey", "leaf2-chain.pem", "leaf2.key"),
        ("ipLeaf", "ip-chain.pem", "ip.key"),
        ("notYetValid", "future-chain.pem", "future.key"),
    ]
    static let certificateNames = [
        "root", "inter", "leaf", "selfsigned", "expired", "other", "leaf2", "ip", "unrelated",
    ]

    let directory: URL
    /// The pin of each certificate by name (`root`, `inter`, `leaf`, ...), from the openssl pipeline.
    let pins: [String: String]
    /// The port of each served chain, of `redirect` (chain; answers 302 to the `ipLeaf` server by address), of
    /// `mutual` (chain; requires a client certificate issued by the root, `client.pem`) and of `plain` (plain HTTP).
    private(set) var ports: [String: Int] = [:]
    private var process: Process?

    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The end of nginx's error log (notice level: it names the PID a signal came from), for a failure's message.
    func serverLog() -> String {
        let log = directory.appendingPathComponent("nginx/error.log")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? "(no nginx error log at \(log.path))"
        return "nginx error log:\n" + text.suffix(3000)
    }
    func url(_ server: String, host: String = "localhost", path: String = "/") -> String {
        "https://\(host):\(ports[server] ?? 0)\(path)"
    }

    private init(directory: URL, pins: [String: String]) {
        self.directory = directory
        self.pins = pins
    }

    static func start() async throws -> PinningFixture {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-pin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try await runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script(in: directory.path)])
        guard result.exitCode == 0 else {
            throw FixtureError("openssl failed to make certificates: \(result.stderr.suffix(2000))")
        }
        var pins: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { pins[String(parts[0])] = "sha256//" + parts[1] }
        }
        let fixture = PinningFixture(directory: directory, pins: pins)
        try fixture.startServer()
        return fixture
    }

    private static func script(in directory: String) -> String {
        let pinLines = certificateNames.map { name in
            "printf '%s ' \(name); openssl x509 -in \(name).pem -pubkey -noout | openssl pkey -pubin -outform der "
                + "| openssl dgst -sha256 -binary | base64"
        }.joined(separator: "\n")
        return """
            set -e
            cd '\(directory)'
            exec 3>&1 >/dev/null 2>err.log
            key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }
            printf 'basicConstraints=critical,CA:true\\nkeyUsage=critical,keyCertSign,cRLSign\\n' > ca.ext
            leafext() { printf 'basicConstraints=critical,CA:false\\nkeyUsage=critical,digitalSignature\\nextendedKeyUsage=serverAuth\\nsubjectAltName=%s\\n' "$1" > "$2"; }
            key root.key
            openssl req -x509 -key root.key -out root.pem -days 30 -subj '/CN=apitest pin root' \
              -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign,cRLSign
            key inter.key
            openssl req -new -key inter.key -out inter.csr -subj '/CN=apitest pin intermediate'
            openssl x509 -req -in inter.csr -CA root.pem -CAkey root.key -CAcreateserial -out inter.pem -days 30 \
              -extfile ca.ext
            sign() { # name subject san days
              key "$1.key"
              openssl req -new -key "$1.key" -out "$1.csr" -subj "$2"
              leafext "$3" "$1.ext"
              openssl x509 -req -in "$1.csr" -CA inter.pem -CAkey inter.key -CAcreateserial -out "$1.pem" \
                -days "$4" -extfile "$1.ext"
              cat "$1.pem" inter.pem > "$5"
            }
            sign leaf /CN=localhost DNS:localhost 30 chain.pem
            sign expired /CN=localhost DNS:localhost -1 expired-chain.pem
            sign other /CN=other.example DNS:other.example 30 other-chain.pem
            sign leaf2 /CN=localhost DNS:localhost 30 leaf2-chain.pem
            sign ip /CN=127.0.0.1 IP:127.0.0.1 30 ip-chain.pem
            # Not yet valid: `openssl x509` (OpenSSL 3.0) cannot set notBefore; `openssl ca` can.
            key future.key
            openssl req -new -key future.key -out future.csr -subj /CN=localhost
            touch index.txt
            echo 01 > serial
            printf '[ca]\\ndefault_ca=d\\n[d]\\ndatabase=index.txt\\nnew_certs_dir=.\\nserial=serial\\ndefault_md=sha256\\npolicy=p\\n[p]\\ncommonName=supplied\\n[ext]\\nsubjectAltName=DNS:localhost\\n' > ca.cnf
            openssl ca -batch -config ca.cnf -cert inter.pem -keyfile inter.key -in future.csr -out future.pem \
              -startdate 20991231000000Z -enddate 21000101000000Z -extensions ext -notext
            cat future.pem inter.pem > future-chain.pem
            key selfsigned.key
            openssl req -x509 -key selfsigned.key -out selfsigned.pem -days 30 -subj /CN=localhost \
              -addext subjectAltName=DNS:localhost
            key client.key
            openssl req -new -key client.key -out client.csr -subj '/CN=apitest client'
            printf 'basicConstraints=critical,CA:false\\nkeyUsage=critical,digitalSignature\\nextendedKeyUsage=clientAuth\\n' > client.ext
            openssl x509 -req -in client.csr -CA root.pem -CAkey root.key -CAcreateserial -out client.pem -days 30 \
              -extfile client.ext
            key unrelated.key
            openssl req -x509 -key unrelated.key -out unrelated.pem -days 30 -subj '/CN=apitest unrelated'
            exec 1>&3
            \(pinLines)
            """
    }

    private func startServer() throws {
        let nginx = directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: nginx, withIntermediateDirectories: true)
        let served = Self.servedChains + [("redirect", "chain.pem", "leaf.key")]
        let names = served.map(\.0) + ["mutual", "plain"]
        let (process, portList) = try NginxLauncher.start(
            in: nginx, portCount: names.count, errorLogLevel: "notice", accessLog: true
        ) { portList in
            let ports = Dictionary(uniqueKeysWithValues: zip(names, portList))
            var blocks = ""
            for served in served {
                let body =
                    served.0 == "redirect"
                    ? "return 302 https://127.0.0.1:\(ports["ipLeaf"] ?? 0)/landed;"
                    : #"default_type application/json; return 200 '{"server":"\#(served.0)"}';"#
                blocks += """
                      server {
                        listen 127.0.0.1:\(ports[served.0] ?? 0) ssl http2;
                        ssl_certificate \(file(served.1));
                        ssl_certificate_key \(file(served.2));
                        location / { \(body) }
                      }

                    """
            }
            blocks += """
                  server {
                    listen 127.0.0.1:\(ports["mutual"] ?? 0) ssl;
                    ssl_certificate \(file("chain.pem"));
                    ssl_certificate_key \(file("leaf.key"));
                    ssl_client_certificate \(file("root.pem"));
                    ssl_verify_client on;
                    location / { return 200 '$ssl_client_s_dn'; }
                  }

                """
            blocks += "  server { listen 127.0.0.1:\(ports["plain"] ?? 0); location / { return 200 'plain'; } }\n"
            return blocks
        }
        self.ports = Dictionary(uniqueKeysWithValues: zip(names, portList))
        self.process = process
    }

    func stop() {
        if let process { stopProcess(process, signal: SIGTERM) }
        process = nil
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
