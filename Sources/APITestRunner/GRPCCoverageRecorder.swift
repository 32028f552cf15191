import APITestHTTP
import APITestProtobuf
import APITestResults
import APITestSuite
import APITestSupport
import Foundation
import Synchronization

/// Counts, during a run, what its `grpc:` steps called of the methods the suites' descriptors declare: calls per
/// method and per final status code. Shared by every worker; ``coverage`` makes the run's ``GRPCCoverage`` when it
/// ends. A run with no `grpc:` step makes none (the runner passes `nil`, so no call does any coverage work).
///
/// The `.proto` sources are known before the first call (each suite's compiled schema); a server read through
/// reflection becomes a source when its schema first arrives (``register(reflected:server:)``). Counting a call
/// takes no lock for a source of `.proto` files: each method's calls and its status codes `0...16` are atomic
/// counters found through dictionaries fixed at the start; a reflected source is looked up under a lock, and a
/// code gRPC does not define (rare) is counted under its method's lock.
final class GRPCCoverageRecorder: Sendable {
    /// One counter (an `Atomic` cannot be an array's element).
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)

        func add() { value.wrappingAdd(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// The counters of one method.
    final class MethodCounters: Sendable {
        let name: String
        let streaming: GRPCCoverage.Streaming
        let calls = Counter()
        /// By code, `0...16` (the codes gRPC defines).
        let codes: [Counter]
        /// Codes outside `0...16`, by number.
        let others = Mutex<[Int: Int]>([:])

        init(_ method: ProtoMethodDescriptor) {
            name = "\(method.serviceName)/\(method.name)"
            streaming = GRPCCoverage.Streaming(
                clientStreaming: method.clientStreaming, serverStreaming: method.serverStreaming)
            codes = (0...GRPCCoverageRecorder.highestCode).map { _ in Counter() }
        }

        func record(code: Int) {
            calls.add()
            if codes.indices.contains(code) {
                codes[code].add()
            } else {
                others.withLock { $0[code, default: 0] += 1 }
            }
        }

        var method: GRPCCoverage.Method {
            var statuses: [String: Int] = [:]
            for (code, counter) in codes.enumerated() {
                let count = counter.count
                if count > 0 { statuses[GRPCCoverageRecorder.codeName(code)] = count }
            }
            for (code, count) in others.withLock({ $0 }) { statuses[GRPCCoverageRecorder.codeName(code)] = count }
            return GRPCCoverage.Method(
                name: name, streaming: streaming, calls: calls.count, statuses: statuses)
        }
    }

    /// The counters of one source, by the method's full name (`acme.Users/GetUser`).
    final class SourceCounts: Sendable {
        let name: String
        let kind: GRPCCoverage.SourceKind
        let methods: [String: MethodCounters]

        init(name: String, kind: GRPCCoverage.SourceKind, schema: ProtoSchema) {
            self.name = name
            self.kind = kind
            var methods: [String: MethodCounters] = [:]
            for method in schema.allMethods {
                // The reflection service is apitest's own way to the schema, not one of the server's methods.
                if kind == .reflection, GRPCCoverageRecorder.reflectionServices.contains(method.serviceName) {
                    continue
                }
                methods[method.path] = MethodCounters(method)
            }
            self.methods = methods
        }

        var source: GRPCCoverage.Source {
            GRPCCoverage.Source(name: name, kind: kind, methods: methods.values.map(\.method))
        }
    }

    /// The highest status code gRPC defines (`UNAUTHENTICATED`).
    static let highestCode = 16
    /// The services of gRPC server reflection, left out of a reflected source.
    static let reflectionServices: Set<String> = [
        "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
    ]

    /// The `.proto` sources, by the file of each suite that names one (suites naming the same files share one).
    private let protoSources: [String: SourceCounts]
    /// The sources in the order first registered, `.proto` ones first.
    private let order: Mutex<[SourceCounts]>
    /// The reflected sources, by server (`host:port`).
    private let reflected = Mutex<[String: SourceCounts]>([:])

    /// A recorder of the `.proto` sources of `suites` (those with a compiled schema).
    init(suites: [Suite]) {
        var bySuite: [String: SourceCounts] = [:]
        var byName: [String: SourceCounts] = [:]
        var order: [SourceCounts] = []
        for suite in suites {
            guard let loaded = suite.grpcSchema else { continue }
            let name = Self.protoSourceName(of: loaded.setting, suiteFile: suite.file)
            let counts =
                byName[name]
                ?? {
                    let made = SourceCounts(name: name, kind: .proto, schema: loaded.schema)
                    byName[name] = made
                    order.append(made)
                    return made
                }()
            bySuite[suite.file] = counts
        }
        protoSources = bySuite
        self.order = Mutex(order)
    }

    /// Whether any of `suites` has a `grpc:` step (else a run needs no recorder).
    static func needed(for suites: [Suite]) -> Bool {
        // A suite with a grpc: step has the suite-level grpc: (else it does not load): only those are walked.
        suites.contains { suite in suite.grpc != nil && suite.containsStep { $0.grpc != nil } }
    }

    // MARK: - Sources

    /// A `.proto` source's name: its files as paths relative to the working directory (when under it), joined by
    /// `, `.
    static func protoSourceName(of setting: GRPCSchemaSetting, suiteFile: String) -> String {
        let folder = FilePaths.directory(of: suiteFile)
        return setting.protoFiles.map { FilePaths.display(FilePaths.absolute($0, relativeTo: folder)) }
            .joined(separator: ", ")
    }

    /// A server's name as a source: `host:port` of its URL (the scheme's port when the URL has none).
    static func serverName(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            return url
        }
        let port = components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 80)
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(shown):\(port)"
    }

    /// The schema of `server` (its `host:port`) read through reflection: a source from now on (the first schema
    /// read of a server is the one counted).
    func register(reflected schema: ProtoSchema, server: String) {
        reflected.withLock { reflected in
            guard reflected[server] == nil else { return }
            let counts = SourceCounts(name: server, kind: .reflection, schema: schema)
            reflected[server] = counts
            order.withLock { $0.append(counts) }
        }
    }

    // MARK: - Counting

    /// A call of `method` by a step of the suite in `suiteFile` ended with status `code`: counted against the
    /// suite's `.proto` source, or against `server`'s reflected source when the suite reads the schema through
    /// reflection (`server` is then its `host:port`).
    func record(_ method: ProtoMethodDescriptor, code: Int, suiteFile: String, server: String?) {
        let counts: SourceCounts?
        if let source = protoSources[suiteFile] {
            counts = source
        } else if let server {
            counts = reflected.withLock { $0[server] }
        } else {
            counts = nil
        }
        counts?.methods[method.path]?.record(code: code)
    }

    /// The coverage counted so far; `nil` when there is no source.
    var coverage: GRPCCoverage? {
        let sources = order.withLock { $0 }
        guard !sources.isEmpty else { return nil }
        return GRPCCoverage(sources: sources.map(\.source))
    }

    /// `OK`, `NOT_FOUND`: the name of `code`; a code gRPC does not define as its number.
    static func codeName(_ code: Int) -> String { GRPCStatus(rawCode: code).codeName }
}
