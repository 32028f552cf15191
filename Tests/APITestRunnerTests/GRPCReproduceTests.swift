import APITestResults
import APITestSuite
import Foundation
import Testing

@testable import APITestRunner

/// The grpcurl command of a `grpc:` step (`apitest export curl`, `StepResult.reproduce`): the target, the method,
/// the messages as JSON after `-d`, the metadata as `-H`, the deadline, `-plaintext` or the TLS options, and the
/// `.proto` files or nothing (grpcurl's reflection); secrets as `"${NAME}"`, credentials written in the suite
/// masked, and every value quoted so that the shell runs nothing of it.
@Suite struct GRPCReproduceTests {
    /// The arguments `shell` hands grpcurl for `command` (a `printf '%s\0'` in its place), with `environment` set,
    /// run in `folder`.
    private func arguments(
        of command: ReproduceCommand, shell: String = "/bin/bash", environment: [String: String] = [:],
        in folder: URL
    ) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", "printf '%s\\0' " + command.words.dropFirst().joined(separator: " ")]
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { first, _ in first }
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-grpcurl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aReflectionStepIsAPlaintextGrpcurlCommandWithItsSecretsAsVariables() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = "tok-Zq9'vä"
        let suite = try SuiteLoader(environment: ["API_TOKEN": token]).load(
            source: """
                grpc: {reflection: true}
                tests:
                  - name: get
                    steps:
                      - grpc:
                          url: grpc://127.0.0.1:50051
                          method: acme.users.v1.Users/GetUser
                          message: {id: "u-1", note: "Bearer {{ env.API_TOKEN }}"}
                          metadata: {authorization: "Bearer {{ env.API_TOKEN }}", x-tenant: blue}
                          timeout: 2s
                """, file: folder.appendingPathComponent("suite.yaml").path)
        let command = try #require(CurlExport.entries(of: [suite], options: RunOptions(jobs: 1)).first?.command)
        #expect(command.words.first == "grpcurl")
        #expect(!command.line.contains("tok-Zq9"), "\(command.line)")
        #expect(!command.line.contains("APITEST"), "no stand-in is left: \(command.line)")
        #expect(command.line.contains(#"'authorization: Bearer '"${API_TOKEN}""#), "\(command.line)")
        let arguments = try arguments(of: command, environment: ["API_TOKEN": token], in: folder)
        #expect(
            arguments == [
                "-plaintext", "-H", "authorization: Bearer \(token)", "-H", "x-tenant: blue", "-max-time", "2",
                "-connect-timeout", "10", "-d", #"{"id":"u-1","note":"Bearer \#(token)"}"#, "127.0.0.1:50051",
                "acme.users.v1.Users/GetUser",
            ], "\(command.line)")
        // No -proto: grpcurl asks the server's reflection service, as apitest does.
        #expect(!arguments.contains("-proto"))
    }

    @Test func protoFilesAStreamOfMessagesAndTLSBecomeGrpcurlOptions() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        syntax = "proto3";
        package acme;
        message Item { string id = 1; }
        service Items { rpc Upload(stream Item) returns (Item); }
        """.write(to: folder.appendingPathComponent("api.proto"), atomically: true, encoding: .utf8)
        let suite = try SuiteLoader(environment: [:]).load(
            source: """
                grpc: {proto: [api.proto]}
                tests:
                  - name: upload
                    steps:
                      - grpc:
                          url: grpcs://api.example.com
                          method: acme.Items/Upload
                          messages: [{id: a}, {id: b}]
                          authority: edge.example.com
                          maxMessageSize: 64KiB
                """, file: folder.appendingPathComponent("suite.yaml").path)
        let command = try #require(CurlExport.entries(of: [suite], options: RunOptions(jobs: 1)).first?.command)
        let arguments = try arguments(of: command, in: folder)
        #expect(
            arguments == [
                "-authority", "edge.example.com", "-max-time", "30", "-connect-timeout", "10", "-max-msg-sz", "65536",
                "-import-path", folder.path, "-proto", "api.proto", "-d", #"{"id":"a"} {"id":"b"}"#,
                "api.example.com:443", "acme.Items/Upload",
            ], "\(command.line)")
    }

    @Test func aBareHostAndPortIsAPlaintextTarget() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = try SuiteLoader(environment: [:]).load(
            source: """
                grpc: {reflection: true}
                tests:
                  - name: bare
                    steps:
                      - grpc: {url: "localhost:50051", method: acme.Users/GetUser}
                """, file: folder.appendingPathComponent("suite.yaml").path)
        let command = try #require(CurlExport.entries(of: [suite], options: RunOptions(jobs: 1)).first?.command)
        let arguments = try arguments(of: command, in: folder)
        #expect(
            arguments == [
                "-plaintext", "-max-time", "30", "-connect-timeout", "10", "localhost:50051", "acme.Users/GetUser",
            ], "\(command.line)")
    }

    @Test func suiteTextCannotBreakTheQuoting() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Every way out of the quoting would run a `touch` of MARKER, in this test's own folder.
        let hostile = #"x' $(touch MARKER) `touch MARKER` \"q\" \\ ; touch MARKER #"#
        let suite = try SuiteLoader(environment: [:]).load(
            source: """
                grpc: {reflection: true}
                variables: {hostile: "\(hostile)"}
                tests:
                  - name: hostile
                    steps:
                      - grpc:
                          url: grpc://127.0.0.1:50051
                          method: acme.Users/GetUser
                          message: {id: "{{ hostile }}"}
                          metadata: {x-v: "{{ hostile }}"}
                          authority: "{{ hostile }}"
                """, file: folder.appendingPathComponent("suite.yaml").path)
        let command = try #require(CurlExport.entries(of: [suite], options: RunOptions(jobs: 1)).first?.command)
        // The YAML's double-quoted escapes read: `\"` is `"`, `\\` is `\`.
        let value = #"x' $(touch MARKER) `touch MARKER` "q" \ ; touch MARKER #"#
        for shell in ["/bin/dash", "/bin/bash"] {
            let arguments = try arguments(of: command, shell: shell, in: folder)
            #expect(arguments.contains("x-v: \(value)"), "\(shell): \(arguments)")
            #expect(arguments.contains(value), "\(shell): \(arguments)")
            #expect(arguments.contains { $0.hasPrefix(#"{"id":"x'"#) }, "\(shell): \(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("MARKER").path))
    }
}
