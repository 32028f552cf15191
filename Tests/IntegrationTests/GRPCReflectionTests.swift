import APITestGRPC
import APITestHTTP
import APITestJSON
import APITestProtobuf
import APITestSecurity
import Foundation
import Synchronization
import Testing

/// The reflection client against grpcio's own server with grpcio-reflection (`GRPCReflectionServer`): `v1`, a
/// `v1alpha`-only server (grpcio-reflection as it comes), a server without reflection, a server that sends each
/// file without its imports (so the client asks for them by name), an unknown service, answers that are no
/// protobuf, the limits; and the messages against the bytes Python's protobuf writes for them.
@Suite struct GRPCReflectionTests {
    /// Runs `body` with a client of `server`, its session shut down afterwards.
    func withClient<T>(
        _ url: String, limits: GRPCReflectionClient.Limits = GRPCReflectionClient.Limits(),
        _ body: (GRPCReflectionClient) async throws -> T
    ) async throws -> T {
        let session = SessionManager(configuration: SessionConfiguration(timeout: .seconds(120)))
        defer { session.shutdown() }
        let client = GRPCReflectionClient(
            session: session, target: GRPCCallDescription(baseURL: url, path: "/", messages: []), limits: limits)
        return try await body(client)
    }

    /// The reflection error `body` throws, or nil (and a recorded issue) when it throws none or another.
    func reflectionError(_ body: () async throws -> Void) async -> GRPCReflectionError? {
        do {
            try await body()
            Issue.record("no error")
        } catch let error as GRPCReflectionError {
            return error
        } catch {
            Issue.record("another error: \(error)")
        }
        return nil
    }

    // MARK: - Versions

    @Test func aV1ServerListsItsServicesAndGivesANamedServiceWithEveryImport() async throws {
        let server = try GRPCReflectionServer(mode: "v1")
        defer { server.stop() }
        try await withClient(server.url) { client in
            let (services, version) = try await client.listServices()
            #expect(version == .v1)
            #expect(
                services == ["acme.billing.v1.Billing", "acme.users.v1.Users", "grpc.reflection.v1.ServerReflection"])

            let reflected = try await client.schema(services: ["acme.users.v1.Users"])
            #expect(reflected.version == .v1)
            #expect(
                Set(reflected.fileNames)
                    == ["acme/users/v1/users.proto", "acme/common/v1/types.proto", "google/protobuf/timestamp.proto"])
            #expect(Array(reflected.schema.services.keys) == ["acme.users.v1.Users"])
            let get = try reflected.schema.method("acme.users.v1.Users/GetUser")
            #expect(get.inputType == "acme.users.v1.GetUserRequest")
            #expect(get.outputType == "acme.users.v1.User")
            #expect(try reflected.schema.method("acme.users.v1.Users/ListUsers").serverStreaming)
            // The type of another package, through the import, and the well-known type it uses.
            let audit = try reflected.schema.message(named: "acme.common.v1.Audit")
            #expect(audit.fields.first { $0.name == "created" }?.typeName == "google.protobuf.Timestamp")

            // The schema serves a real call: the request encoded with it, the answer decoded.
            let request = try reflected.schema.encode(
                .object(JSONObject([("id", .string("u-7"))])), as: get.inputType)
            let received = Mutex<[Data]>([])
            let result = try await client.session.performGRPC(
                GRPCCallDescription(baseURL: server.url, path: get.path, messages: [Data(request)]),
                onMessage: { message in
                    received.withLock { $0.append(message) }
                    return true
                })
            #expect(result.status.isOK)
            let answer = try #require(received.withLock { $0 }.first)
            #expect(
                try reflected.schema.decode(Array(answer), as: get.outputType)
                    == .object(JSONObject([("id", .string("u-7"))])))
        }
    }

    @Test func aV1alphaOnlyServerIsAskedAgainInV1alphaAndGivesEveryService() async throws {
        let server = try GRPCReflectionServer(mode: "v1alpha")
        defer { server.stop() }
        let reflected = try await withClient(server.url) { try await $0.schema() }
        #expect(reflected.version == .v1alpha)
        #expect(reflected.listedServices.contains("grpc.reflection.v1alpha.ServerReflection"))
        #expect(Set(reflected.schema.services.keys) == ["acme.billing.v1.Billing", "acme.users.v1.Users"])
        #expect(reflected.fileNames.count == 4)
        #expect(
            try reflected.schema.method("acme.billing.v1.Billing/Charge").inputType == "acme.billing.v1.ChargeRequest")
    }

    @Test func aServerWithoutReflectionIsNotServedAfterBothVersions() async throws {
        let server = try GRPCReflectionServer(mode: "none")
        defer { server.stop() }
        let error = await reflectionError {
            _ = try await withClient(server.url) { try await $0.schema() }
        }
        #expect(error?.kind == .notServed(server: server.url))
        #expect(error?.message.contains("serves no reflection") == true)
        #expect(error?.message.contains("v1alpha") == true)
    }

    // MARK: - Imports

    @Test func importsTheServerLeavesOutAreAskedForByNameRoundAfterRound() async throws {
        let server = try GRPCReflectionServer(mode: "v1", shallow: true)
        defer { server.stop() }
        let reflected = try await withClient(server.url) { try await $0.schema(services: ["acme.users.v1.Users"]) }
        // One file an answer: users.proto, then its import, then that file's import.
        #expect(
            reflected.fileNames
                == ["acme/users/v1/users.proto", "acme/common/v1/types.proto", "google/protobuf/timestamp.proto"])
        #expect(try reflected.schema.message(named: "google.protobuf.Timestamp").fields.count == 2)

        let error = await reflectionError {
            _ = try await withClient(server.url, limits: GRPCReflectionClient.Limits(maxFiles: 2)) {
                try await $0.schema(services: ["acme.users.v1.Users"])
            }
        }
        #expect(error?.kind == .tooLarge(what: "files", limit: 2))
    }

    // MARK: - Errors

    @Test func anUnknownServiceIsNotFoundWithTheNearestListedOne() async throws {
        let server = try GRPCReflectionServer(mode: "both")
        defer { server.stop() }
        let error = await reflectionError {
            _ = try await withClient(server.url) { try await $0.schema(services: ["acme.users.v1.Usres"]) }
        }
        #expect(error?.kind == .symbolNotFound(name: "acme.users.v1.Usres", suggestion: "acme.users.v1.Users"))
        #expect(
            error?.message
                == "the server does not know the service 'acme.users.v1.Usres'; did you mean 'acme.users.v1.Users'?")
    }

    @Test func answersThatAreNoProtobufAreMalformed() async throws {
        let server = try GRPCReflectionServer(mode: "junk")
        defer { server.stop() }
        let error = await reflectionError {
            _ = try await withClient(server.url) { try await $0.listServices() }
        }
        guard case .malformedAnswer(let reason) = error?.kind else {
            Issue.record("not a malformed answer: \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("the answer to list_services"))
    }

    @Test func answersBeyondTheByteLimitStopTheExchange() async throws {
        let server = try GRPCReflectionServer(mode: "v1")
        defer { server.stop() }
        let error = await reflectionError {
            _ = try await withClient(server.url, limits: GRPCReflectionClient.Limits(maxBytes: 300)) {
                try await $0.schema()
            }
        }
        #expect(error?.kind == .tooLarge(what: "bytes", limit: 300))
    }

    @Test func aServerThatIsNotThereFailsTheCallWithItsStatus() async throws {
        // A port bound and never listened on, held for the test process: connecting is refused.
        let url = "http://127.0.0.1:\(try closedPort())"
        let error = await reflectionError {
            _ = try await withClient(url) { try await $0.listServices() }
        }
        guard case .callFailed(let version, let status) = error?.kind else {
            Issue.record("not a failed call: \(String(describing: error))")
            return
        }
        #expect(version == .v1)
        #expect(status.code == .unavailable)
    }

    // MARK: - TLS

    @Test func theTargetsTLSAndPinsApplyToTheReflectionCalls() async throws {
        let certificate = try await GRPCTestCertificate.make()
        defer { certificate.remove() }
        let server = try GRPCReflectionServer(mode: "v1", certificate: certificate)
        defer { server.stop() }
        let session = SessionManager(configuration: SessionConfiguration(timeout: .seconds(120)))
        defer { session.shutdown() }
        func client(pin: String) throws -> GRPCReflectionClient {
            let policy = try SecurityPolicy(
                SecuritySettings(
                    pinning: .publicKey, pins: [try PublicKeyPin(pin)], caFile: certificate.certificatePath))
            return GRPCReflectionClient(
                session: session,
                target: GRPCCallDescription(
                    baseURL: server.tlsURL, path: "/", messages: [], security: policy,
                    resolve: ["localhost:\(server.port):127.0.0.1"]))
        }
        let reflected = try await client(pin: certificate.pin).schema(services: ["acme.users.v1.Users"])
        #expect(reflected.version == .v1)
        #expect(reflected.schema.services.keys.contains("acme.users.v1.Users"))

        let wrongPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let error = await reflectionError { _ = try await client(pin: wrongPin).listServices() }
        guard case .callFailed(let version, let status) = error?.kind else {
            Issue.record("not a failed call: \(String(describing: error))")
            return
        }
        #expect(version == .v1, "a failure that is not UNIMPLEMENTED is not asked again in v1alpha")
        #expect(status.code == .unavailable)
    }

    // MARK: - Messages against Python's protobuf

    @Test func theMessagesMatchTheBytesPythonsProtobufWrites() async throws {
        let script = """
            from grpc_reflection.v1alpha import reflection_pb2 as r
            requests = [
                r.ServerReflectionRequest(list_services="*"),
                r.ServerReflectionRequest(host="api.example", file_by_filename="acme/common/v1/types.proto"),
                r.ServerReflectionRequest(file_containing_symbol="acme.users.v1.Users"),
            ]
            responses = [
                r.ServerReflectionResponse(valid_host="api.example", original_request=requests[0],
                    list_services_response=r.ListServiceResponse(
                        service=[r.ServiceResponse(name="acme.users.v1.Users"), r.ServiceResponse(name="b.C")])),
                r.ServerReflectionResponse(original_request=requests[1],
                    file_descriptor_response=r.FileDescriptorResponse(file_descriptor_proto=[b"\\x0a\\x03a.p", b""])),
                r.ServerReflectionResponse(error_response=r.ErrorResponse(error_code=5, error_message="Not found: \\u00fc")),
                r.ServerReflectionResponse(error_response=r.ErrorResponse(error_code=-3)),
            ]
            for message in requests + responses:
                print(message.SerializeToString().hex())
            """
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script])
        try #require(result.exitCode == 0, "python3: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { Self.bytes(hex: $0) }
        try #require(lines.count == 7)
        #expect(GRPCReflectionRequest.listServices.encoded() == lines[0])
        #expect(
            GRPCReflectionRequest.fileByFilename("acme/common/v1/types.proto").encoded(host: "api.example") == lines[1])
        #expect(GRPCReflectionRequest.fileContainingSymbol("acme.users.v1.Users").encoded() == lines[2])
        #expect(try GRPCReflectionResponse.decode(lines[3]) == .services(["acme.users.v1.Users", "b.C"]))
        #expect(try GRPCReflectionResponse.decode(lines[4]) == .fileDescriptors([[0x0A, 0x03, 0x61, 0x2E, 0x70], []]))
        #expect(try GRPCReflectionResponse.decode(lines[5]) == .error(code: 5, message: "Not found: \u{FC}"))
        #expect(try GRPCReflectionResponse.decode(lines[6]) == .error(code: -3, message: ""))
        // Bytes that hold none of the answers, or break off, are errors, never a crash.
        #expect(throws: ProtobufError.self) { try GRPCReflectionResponse.decode([0x0A, 0x01, 0x68]) }
        #expect(throws: ProtobufError.self) { try GRPCReflectionResponse.decode(Array(lines[3].dropLast())) }
    }

    static func bytes(hex: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
