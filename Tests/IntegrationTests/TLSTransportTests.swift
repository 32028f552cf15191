import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// HTTPS through the session manager against nginx with a chain generated at test time.
@Suite(.serialized) final class TLSTransportTests {
    let certificates: TestCertificates
    let server: TLSServer
    let session = SessionManager()

    init() throws {
        let certificates = try TestCertificates.make()
        do {
            server = try TLSServer(certificates: certificates)
        } catch {
            certificates.remove() // deinit does not run when init throws
            throw error
        }
        self.certificates = certificates
    }

    deinit {
        session.shutdown()
        server.stop()
        certificates.remove()
    }

    @Test func verificationIsOnByDefault() async throws {
        do {
            _ = try await session.perform(HTTPRequest(url: server.baseURL + "/"))
            Issue.record("a chain from an unknown root was accepted")
        } catch let error as HTTPError {
            #expect(error.reason == .tlsFailure)
        }
    }

    @Test func trustedChainNegotiatesHTTP2() async throws {
        let request = try HTTPRequest(url: server.baseURL + "/").trusting(caFile: certificates.rootCertificate.path)
        let response = try await session.perform(request)
        #expect(response.statusCode == 200)
        #expect(response.httpVersion == "HTTP/2")
        #expect(response.reasonPhrase == "")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"tls":true}"#)
        #expect(response.timings.tlsHandshake >= response.timings.connect)
    }

    @Test func manyRequestsMultiplexOverHTTP2() async throws {
        let caFile = certificates.rootCertificate.path
        let url = server.baseURL
        let versions = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<40 {
                group.addTask { [session] in
                    try await session.perform(HTTPRequest(url: "\(url)/item/\(index)").trusting(caFile: caFile))
                        .httpVersion
                }
            }
            var versions: [String] = []
            for try await version in group { versions.append(version) }
            return versions
        }
        #expect(versions.count == 40)
        #expect(Set(versions) == ["HTTP/2"])
    }

    @Test func hostNameIsCheckedUnlessTurnedOff() async throws {
        // The leaf names localhost only; the same server reached as 127.0.0.1 must fail, even with a trusted root.
        let caFile = certificates.rootCertificate.path
        let byAddress = "https://127.0.0.1:\(server.port)/"
        do {
            _ = try await session.perform(try HTTPRequest(url: byAddress).trusting(caFile: caFile))
            Issue.record("a certificate for localhost was accepted for 127.0.0.1")
        } catch let error as HTTPError {
            #expect(error.reason == .tlsFailure)
            #expect(error.tlsEvaluation?.problem == .hostnameMismatch)
            #expect(error.message.contains("hostname mismatch"), "\(error.message)")
        }
        let noHostCheck = try HTTPRequest(url: byAddress).trusting(caFile: caFile, validatesDomainName: false)
        #expect(try await session.perform(noHostCheck).statusCode == 200)
    }
}
