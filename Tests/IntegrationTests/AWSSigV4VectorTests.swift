import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// AWS Signature Version 4 as libcurl computes it for `HTTPRequest.authentication`, held to the official AWS test
/// suite (`Fixtures/aws-sig-v4-test-suite`, Apache-2.0, see its NOTICE): each vector's request is sent to nginx
/// under the vector's host name with the vector's `X-Amz-Date` (libcurl signs with a date the request already
/// carries), and the `Authorization` header that arrived must be the one AWS lists.
@Suite(.serialized) final class AWSSigV4VectorTests {
    let server: TransportServer
    let session = SessionManager()

    init() throws {
        server = try TransportServer()
    }

    deinit {
        session.shutdown()
        server.stop()
    }

    /// Vectors apitest does not send as written, each with the reason.
    static let notSent: [String: String] = [
        // Path normalization: libcurl and nginx both see the path as sent; the AWS vectors sign a normalized path
        // that only a client which normalizes before signing produces.
        "get-relative": "path normalization", "get-relative-relative": "path normalization",
        "get-slash": "path normalization", "get-slash-dot-slash": "path normalization",
        "get-slash-pointless-dot": "path normalization", "get-slashes": "path normalization",
        // The token is added after signing, which libcurl (signing every header it sends) cannot do.
        "post-sts-header-after": "an unsigned header added after signing",
        // libcurl 7.88 lists a header name sent several times once per line (`my-header1;my-header1`) instead of
        // once with the values joined; later libcurl versions join them.
        "get-header-key-duplicate": "a repeated header name (libcurl 7.88)",
        "get-header-value-order": "a repeated header name (libcurl 7.88)",
        // libcurl 7.88 signs the query in the order it is written; AWS sorts it first (later libcurl versions do).
        "get-vanilla-query-order-key": "an unsorted query (libcurl 7.88)",
        "get-vanilla-query-order-key-case": "an unsorted query (libcurl 7.88)",
        "get-vanilla-query-order-value": "an unsorted query (libcurl 7.88)",
        // A Content-Type with a parameter (`; charset=utf-8`): libcurl 7.88's signature differs from AWS's; not
        // analysed further (the other form vector, without the parameter, matches).
        "post-x-www-form-urlencoded-parameters": "a Content-Type parameter (libcurl 7.88)",
    ]

    struct Vector {
        var name: String
        var method: String
        var uri: String
        var headers: [(String, String)]
        var body: String
        var authorization: String
    }

    static func vectors() throws -> (vectors: [Vector], stsToken: String) {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/aws-sig-v4-test-suite/index.json")
        let document = try JSONParser.parse(try Data(contentsOf: file))
        guard case .object(let root) = document, case .string(let token)? = root["stsToken"],
            case .object(let tests)? = root["tests"], case .array(let all)? = tests["all"]
        else { throw CocoaError(.fileReadCorruptFile) }
        let vectors = all.compactMap { item -> Vector? in
            guard case .object(let test) = item, case .string(let name)? = test["name"],
                case .string(let authorization)? = test["authz"], case .object(let request)? = test["request"],
                case .string(let method)? = request["method"], case .string(let uri)? = request["uri"],
                case .string(let body)? = request["body"], case .array(let headerItems)? = request["headers"]
            else { return nil }
            let headers = headerItems.compactMap { pair -> (String, String)? in
                guard case .array(let parts) = pair, parts.count == 2, case .string(let name) = parts[0],
                    case .string(let value) = parts[1]
                else { return nil }
                return (name, value)
            }
            return Vector(
                name: name, method: method, uri: uri, headers: headers, body: body, authorization: authorization)
        }
        return (vectors, token)
    }

    @Test func libcurlSignsEveryVectorAsAWSDoes() async throws {
        let (vectors, stsToken) = try Self.vectors()
        #expect(vectors.count == 28)
        var checked = 0
        var mismatches: [String] = []
        for vector in vectors where Self.notSent[vector.name] == nil {
            // The URL as it goes on the wire: non-ASCII bytes percent-encoded.
            let uri =
                vector.uri.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.union(.urlPathAllowed))
                ?? vector.uri
            var request = HTTPRequest(method: vector.method, url: "http://example.amazonaws.com" + uri)
            var sessionToken: String?
            for (name, value) in vector.headers {
                switch name.lowercased() {
                // Host comes from the URL. Content-Length is in several vectors' requests but signed by one: it goes
                // among the request's own headers (which libcurl signs) only there, else libcurl adds its own.
                case "host": continue
                case "content-length" where !vector.authorization.contains("content-length;"): continue
                case "x-amz-security-token": sessionToken = value
                default: request.headers.add(name: name, value: value)
                }
            }
            if !vector.body.isEmpty { request.body = .data(Data(vector.body.utf8)) }
            request.acceptEncoding = nil
            request.transport.connectTo = ["example.amazonaws.com:80:127.0.0.1:\(server.authorizationPort)"]
            request.authentication = .awsSigV4(
                .init(
                    accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                    sessionToken: sessionToken, region: "us-east-1", service: "service"))
            if sessionToken != nil { #expect(sessionToken == stsToken) }
            let response = try await session.perform(request)
            let sent = String(decoding: response.body, as: UTF8.self)
            if sent != vector.authorization {
                mismatches.append("\(vector.name):\n  sent     \(sent)\n  expected \(vector.authorization)")
            }
            checked += 1
        }
        #expect(checked == 15)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test func aBodyStreamedFromAFileIsRefusedRatherThanSignedWrong() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sigv4-\(UUID().uuidString).txt")
        try Data("Param1=value1".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = HTTPRequest(method: "POST", url: "http://example.amazonaws.com/", body: .file(path: file.path))
        request.transport.connectTo = ["example.amazonaws.com:80:127.0.0.1:\(server.authorizationPort)"]
        request.authentication = .awsSigV4(
            .init(accessKey: "AKIDEXAMPLE", secretKey: "secret", region: "us-east-1", service: "service"))
        do {
            _ = try await session.perform(request)
            Issue.record("a streamed body was signed")
        } catch let error as HTTPError {
            #expect(error.detail == .streamedBodyNotSignable)
            #expect(error.description.contains("AWS Signature Version 4 signs a body held in memory"))
        }
    }
}
