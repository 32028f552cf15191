import APITestSecurity
import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// What crosses the C boundary of pinning is typed: a certificate file is parsed once by OpenSSL and comes back as
/// its DER and its key's SHA-256 (a ``PublicKeyPin``, never text to parse again); a compiled policy gets each pin as
/// digest bytes with their algorithm and each certificate as that DER. The expected digests come from the openssl
/// command, a separate implementation.
@Suite struct CertificateBoundaryTests {
    /// A folder with a self-signed certificate as PEM and DER, and its key's pin as the openssl pipeline computes it.
    struct Material {
        var folder: URL
        var pem: String { folder.appendingPathComponent("cert.pem").path }
        var der: String { folder.appendingPathComponent("cert.der").path }
        /// `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary`.
        var spkiSHA256: [UInt8]

        static func make(commonName: String = "boundary.test") throws -> Material {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("apitest-boundary-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let key = folder.appendingPathComponent("key.pem").path
            let pem = folder.appendingPathComponent("cert.pem").path
            let der = folder.appendingPathComponent("cert.der").path
            let spki = folder.appendingPathComponent("spki.der").path
            try openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key])
            try openssl([
                "req", "-x509", "-new", "-key", key, "-subj", "/CN=\(commonName)", "-days", "2", "-out", pem,
            ])
            try openssl(["x509", "-in", pem, "-outform", "DER", "-out", der])
            try openssl(["pkey", "-in", key, "-pubout", "-outform", "DER", "-out", spki])
            let digest = try openssl(["dgst", "-sha256", "-binary", spki])
            return Material(folder: folder, spkiSHA256: Array(digest))
        }

        func remove() {
            try? FileManager.default.removeItem(at: folder)
        }

        /// Runs the openssl command and returns its standard output; throws when it fails.
        @discardableResult
        static func openssl(_ arguments: [String]) throws -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw OpenSSLFailed(arguments: arguments) }
            return data
        }
    }

    struct OpenSSLFailed: Error {
        var arguments: [String]
    }

    @Test func aLoadedCertificateCarriesItsDERAndTheKeyDigestOpenSSLComputes() throws {
        let material = try Material.make()
        defer { material.remove() }
        let fileDER = try Data(contentsOf: URL(fileURLWithPath: material.der))
        for path in [material.der, material.pem] {
            let certificates = try PinnedCertificate.load(contentsOf: path)
            try #require(certificates.count == 1, "\(path)")
            #expect(certificates[0].der == fileDER, "\(path)")
            #expect(certificates[0].info.publicKey == PublicKeyPin(sha256: material.spkiSHA256), "\(path)")
            #expect(certificates[0].info.publicKeyPin == PublicKeyPin(sha256: material.spkiSHA256).description)
            #expect(certificates[0].info.subject == "CN=boundary.test")
        }
    }

    @Test func aCompiledPolicyPinsTheKeysOfItsCertificatesAsGiven() throws {
        let material = try Material.make()
        defer { material.remove() }
        let key = PublicKeyPin(sha256: material.spkiSHA256)
        let byCertificate = try SecurityPolicy(SecuritySettings(pinning: .certificate, certificates: [material.der]))
        let compiled = try CompiledSecurityPolicy(policy: byCertificate, id: 1)
        #expect(compiled.pins == [key])
        #expect(compiled.pinNames == [key.description])

        // publicKey mode: the pins first, then the certificates' keys not already among them.
        let other = PublicKeyPin(sha256: Array(repeating: 7, count: 32))
        let byKey = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [other], certificates: [material.pem, material.der]))
        #expect(try CompiledSecurityPolicy(policy: byKey, id: 2).pins == [other, key])
    }

    @Test func aPinThatIsNotASHA256DigestIsRefusedNotTruncated() throws {
        let short = PublicKeyPin(sha256: [1, 2, 3])
        let policy = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [short, PublicKeyPin(sha256: Array(repeating: 1, count: 32))]))
        #expect(throws: CompiledSecurityPolicy.Refused.self) { try CompiledSecurityPolicy(policy: policy, id: 1) }
    }

    @Test func aPolicyOpenSSLRefusesFailsTheTransferUnsentSayingWhy() async throws {
        let short = PublicKeyPin(sha256: [1, 2, 3])
        let policy = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [short, PublicKeyPin(sha256: Array(repeating: 1, count: 32))]))
        var request = HTTPRequest(url: "https://127.0.0.1:9/")
        request.security = policy
        let session = SessionManager()
        defer { session.shutdown() }
        await #expect(throws: HTTPError.self) {
            do {
                _ = try await session.perform(request)
            } catch let error as HTTPError {
                #expect(error.reason == .invalidRequest)
                #expect(error.message.contains("is not a SHA-256 digest of 32 bytes"), "\(error.message)")
                throw error
            }
        }
    }
}
