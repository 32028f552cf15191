import APITestProtobuf
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// `grpc:` steps, the suite's `grpc:` and `expect.grpc`: what a well-formed call loads to, and a located error with
/// a did-you-mean for every bad key, method, field or enum name (checked against the `.proto` files when the suite
/// loads).
@Suite struct GRPCParserTests {
    static let proto = """
        syntax = "proto3";
        package acme;
        enum Role { ROLE_UNSPECIFIED = 0; ADMIN = 1; READER = 2; }
        message Address { string city_name = 1; }
        message User { string id = 1; string name = 2; repeated Role roles = 3; Address home = 4;
          map<string, Address> offices = 5; int64 visits = 6; }
        message GetUserRequest { string id = 1; Role role = 2; }
        service Users {
          rpc GetUser(GetUserRequest) returns (User);
          rpc ListUsers(GetUserRequest) returns (stream User);
          rpc Upload(stream User) returns (GetUserRequest);
          rpc Chat(stream User) returns (stream User);
        }
        """

    /// A suite in a fresh folder with `api.proto`, whose one test has the step `step`.
    private static func suite(_ step: String, top: String = "grpc: {proto: [api.proto]}\n") throws -> (String, String) {
        let directory = try makeTemporaryDirectory()
        try writeFile(proto, to: "api.proto", in: directory)
        let text =
            top + "tests:\n  - name: t\n    steps:\n      - "
            + step.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n        ") + "\n"
        return (text, directory + "/suite.yaml")
    }

    private static func load(_ step: String, top: String = "grpc: {proto: [api.proto]}\n") throws -> Suite {
        let (text, file) = try suite(step, top: top)
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        return try loadSuite(text, file: file)
    }

    private static func errorsOf(_ step: String, top: String = "grpc: {proto: [api.proto]}\n") throws -> [String] {
        let (text, file) = try suite(step, top: top)
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        return errors(text, file: file)
    }

    @Test func aUnaryCallLoadsWithItsMethodResolved() throws {
        let loaded = try Self.load(
            """
            name: get
            grpc:
              url: grpc://127.0.0.1:50051
              method: acme.Users/GetUser
              message: {id: "{{ userId }}", role: ADMIN}
              metadata: {X-Api-Key: "k-{{ userId }}"}
              timeout: 2s
              authority: api.example.com
              maxMessageSize: 64KiB
            expect:
              grpc: {status: NOT_FOUND, message: {contains: missing}, trailers: {x-trace: {exists: true}}}
              json: {$.name: Ada}
            capture: {name: {jsonpath: $.name}}
            """, top: "grpc: {proto: [api.proto]}\nvariables: {userId: u1}\n")
        let step = try #require(loaded.tests.first?.steps.first)
        let spec = try #require(step.grpc)
        #expect(step.name == "get")
        #expect(step.request.url.source == "grpc://127.0.0.1:50051")
        #expect(step.request.timeout == .seconds(2))
        #expect(step.request.headers.map(\.name) == ["x-api-key"], "metadata keys go lower-case")
        #expect(spec.metadataKeys == ["x-api-key"])
        #expect(spec.method == "acme.Users/GetUser")
        #expect(spec.resolved?.inputType == "acme.GetUserRequest")
        #expect(spec.resolved?.outputType == "acme.User")
        #expect(spec.messages.count == 1 && !spec.isMessageList)
        #expect(spec.authority?.source == "api.example.com")
        #expect(spec.maxMessageSize == 64 * 1024)
        let grpc = try #require(step.expect.grpc)
        #expect(grpc.codes == [5])
        #expect(grpc.statusChecks.count == 1)
        #expect(grpc.trailers.count == 1)
        #expect(step.captures.map(\.name) == ["name"])
        #expect(loaded.grpcSchema != nil)
    }

    @Test func streamsTakeMessagesAndStatusesTakeNamesNumbersOrLists() throws {
        let loaded = try Self.load(
            """
            grpc:
              url: grpc://h:1
              method: /acme.Users/Chat
              messages: [{id: a}, {name: b, roles: [READER]}]
            expect:
              grpc: {status: [ok, 14]}
              events: {count: {equals: 2}}
            """)
        let step = try #require(loaded.tests.first?.steps.first)
        #expect(step.grpc?.messages.count == 2)
        #expect(step.grpc?.isMessageList == true)
        #expect(step.grpc?.resolved?.clientStreaming == true)
        #expect(step.expect.grpc?.codes == [0, 14])
        #expect(step.expect.events != nil)
    }

    @Test func detailsTakeOneCheckOrJSONPathsIntoTheList() throws {
        let loaded = try Self.load(
            """
            grpc: {url: grpc://h:1, method: acme.Users/GetUser}
            expect:
              grpc:
                status: NOT_FOUND
                details: {"$[0].reason": USER_MISSING, "$[*]": {count: 1}}
            """)
        let checks = try #require(loaded.tests.first?.steps.first?.expect.grpc?.statusChecks)
        #expect(checks.map(\.query.description) == ["$.details[0].reason", "$.details[*]"])
        let whole = try Self.load(
            "grpc: {url: grpc://h:1, method: acme.Users/GetUser}\nexpect: {grpc: {status: 5, details: [{a: 1}]}}")
        #expect(whole.tests.first?.steps.first?.expect.grpc?.statusChecks.map(\.query.description) == ["$.details"])
        #expect(
            try Self.errorsOf(
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser}\nexpect: {grpc: {details: {\"$[\": 1}}}"
            )
            .contains { $0.contains("JSONPath") || $0.contains("$[") })
    }

    @Test func unknownNamesGetADidYouMeanAtTheirPlace() throws {
        let cases: [(String, String)] = [
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUsr}",
                "unknown method 'GetUsr' of service acme.Users; did you mean 'GetUser'?"
            ),
            ("grpc: {url: grpc://h:1, method: acme.Usrs/GetUser}", "did you mean 'acme.Users'?"),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser, message: {idd: x}}",
                "$.idd: unknown field 'idd' of acme.GetUserRequest; did you mean 'id'?"
            ),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser, message: {id: '{{ x }}', role: ADMN}}",
                "$.role: unknown enum value 'ADMN' of acme.Role; did you mean 'ADMIN'?"
            ),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/Upload, messages: [{home: {citName: '{{ x }}'}}]}",
                "$.home.citName: unknown field 'citName' of acme.Address; did you mean 'cityName'?"
            ),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/Upload, messages: [{offices: {a: {cty: x}}}]}",
                "unknown field 'cty' of acme.Address"
            ),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/Upload, message: {id: a}}",
                "acme.Users/Upload is client-streaming: write its request messages as 'messages: [...]'"
            ),
            ("grpc: {url: grpc://h:1, method: acme.Users/GetUser, messages: [{id: a}]}", "takes one request message"),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser, mesage: {id: a}}",
                "unknown key 'mesage' in grpc; did you mean 'message'?"
            ),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser}\nexpct: {}",
                "unknown key 'expct' in a grpc step; did you mean 'expect'?"
            ),
            ("grpc: {url: ftp://h:1, method: acme.Users/GetUser}", "unsupported URL scheme 'ftp' for a gRPC call"),
            ("grpc: {url: grpc://h:1}", "'grpc' needs a 'method'"),
            ("grpc: {url: grpc://h:1, method: 'not a method'}", "is not a gRPC method"),
            ("grpc: {method: acme.Users/GetUser}", "'grpc' needs a 'url'"),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser, metadata: {grpc-timeout: 1S}}",
                "'grpc-timeout' is set by gRPC or HTTP itself"
            ),
            ("grpc: {url: grpc://h:1, method: acme.Users/GetUser, metadata: {'a b': x}}", "is not a metadata key"),
            ("grpc: {url: grpc://h:1, method: acme.Users/GetUser, message: [1]}", "message"),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser}\nexpect: {grpc: {status: NOT_FOUD}}",
                "unknown gRPC status 'NOT_FOUD'; did you mean 'NOT_FOUND'?"
            ),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser}\nexpect: {grpc: {stauts: OK}}",
                "unknown key 'stauts' in expect.grpc; did you mean 'status'?"
            ),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser}\nexpect: {status: 200}",
                "'status' does not apply to a gRPC call"
            ),
            (
                "grpc: {url: grpc://h:1, method: acme.Users/GetUser}\nrequest: {url: /x}",
                "'request' does not go with 'grpc'"
            ),
            ("request: {url: http://h/x}\nexpect: {grpc: {status: OK}}", "'expect.grpc' checks a gRPC call"),
        ]
        for (step, expected) in cases {
            let found = try Self.errorsOf(step)
            #expect(found.contains { $0.contains(expected) }, "\(step) → \(found)")
            #expect(found.allSatisfy { $0.contains("suite.yaml:") }, "located: \(found)")
        }
    }

    @Test func theMessageErrorIsAtTheMessageAndTheMethodErrorAtTheMethod() throws {
        let (text, file) = try Self.suite(
            "grpc:\n  url: grpc://h:1\n  method: acme.Users/GetUser\n  message: {idd: x}")
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        let found = diagnosticsOf(text, file: file)
        let located = try #require(found.first)
        #expect(located.location.line == 8, "\(found)")
        #expect(located.location.column == 20, "\(found)")
    }

    @Test func theSuiteSettingIsCheckedToo() throws {
        let step = "grpc: {url: grpc://h:1, method: acme.Users/GetUser}"
        #expect(
            try Self.errorsOf(step, top: "").contains { $0.contains("a grpc step needs the suite's message types") })
        #expect(
            try Self.errorsOf(step, top: "grpc: {proto: [missing.proto]}\n").contains { $0.contains("missing.proto") })
        #expect(
            try Self.errorsOf(step, top: "grpc: {proto: [api.proto], reflection: true}\n").contains {
                $0.contains("'proto' files or 'reflection: true', not both")
            })
        #expect(
            try Self.errorsOf(step, top: "grpc: {protos: [api.proto]}\n").contains {
                $0.contains("did you mean 'proto'?")
            })
        let reflected = try Self.load(
            "grpc: {url: grpc://h:1, method: acme.Nothing/Here, message: {any: thing}}",
            top: "grpc: {reflection: true}\n")
        let spec = try #require(reflected.tests.first?.steps.first?.grpc)
        #expect(spec.resolved == nil, "with reflection the method is found at run time")
        #expect(reflected.grpc?.reflection == true)
    }

    @Test func aProtoFileThatDoesNotCompileIsLocatedInIt() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("syntax = \"proto3\";\nmessage A { Missing b = 1; }\n", to: "bad.proto", in: directory)
        let text =
            "grpc: {proto: bad.proto}\ntests:\n  - name: t\n    steps:\n      - grpc: {url: grpc://h:1, method: A/B}\n"
        let found = errors(text, file: directory + "/suite.yaml")
        #expect(found.contains { $0.contains("bad.proto:2:") && $0.contains("Missing") }, "\(found)")
    }
}

/// The diagnostics of a suite file that must fail to load.
private func diagnosticsOf(_ text: String, file: String) -> [Diagnostic] {
    do {
        _ = try loadSuite(text, file: file)
        return []
    } catch {
        return error.diagnostics
    }
}
