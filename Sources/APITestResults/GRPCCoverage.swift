/// How much of the gRPC services a run's suites declare its `grpc:` steps called: for each schema source (a suite's
/// `.proto` files, or a server read through reflection), every method the descriptors declare with its streaming
/// shape, how often it was called and the status codes the calls ended with (`OK: 12, NOT_FOUND: 1`).
///
/// Counts only add up: ``merge(_:)`` of the coverage of two shards of a run is the coverage of the whole run, in
/// any order (sources and methods are kept sorted by name), so the document written by `--report-grpc-coverage`
/// merges cleanly across CI shards. Two descriptions of one source that declare different methods are refused
/// (``MergeConflict``): the shards of one run load the same descriptors.
package struct GRPCCoverage: Sendable, Hashable, Codable {
    /// Version of this document's layout, `schemas/grpc-coverage.schema.json`.
    package static let formatVersion = 1

    /// One entry per schema source, sorted by kind, then name.
    package var sources: [Source]

    /// Coverage of `sources` (sorted here).
    package init(sources: [Source] = []) {
        self.sources = sources.sorted(by: Source.precedes)
    }

    // MARK: - Model

    /// Where a source's descriptors came from.
    package enum SourceKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A suite's `.proto` files (`grpc: {proto: [...]}`).
        case proto
        /// A server's reflection service (`grpc: {reflection: true}`), named by its `host:port`.
        case reflection
    }

    /// One schema source and what the run called of it.
    package struct Source: Sendable, Hashable, Codable {
        /// `proto`: the files, comma-separated, as paths relative to the working directory when under it;
        /// `reflection`: the server's `host:port`.
        package var name: String
        /// Where the descriptors came from.
        package var kind: SourceKind
        /// Every method the descriptors declare, sorted by full name.
        package var methods: [Method]

        /// A source declaring `methods` (sorted here).
        package init(name: String, kind: SourceKind, methods: [Method]) {
            self.name = name
            self.kind = kind
            self.methods = methods.sorted { $0.name < $1.name }
        }

        /// The order of sources in a coverage: by kind, then name.
        static func precedes(_ lhs: Source, _ rhs: Source) -> Bool {
            lhs.kind != rhs.kind ? lhs.kind.rawValue < rhs.kind.rawValue : lhs.name < rhs.name
        }

        /// What identifies the declarations of the source: each method's name and shape.
        var declarations: [String] { methods.map { "\($0.name) \($0.streaming.rawValue)" } }
    }

    /// How a method's messages flow.
    package enum Streaming: String, Sendable, Hashable, Codable, CaseIterable {
        /// One request, one response.
        case unary
        /// One request, a stream of responses.
        case server
        /// A stream of requests, one response.
        case client
        /// Streams both ways.
        case bidi

        /// The shape of a method whose client and server stream as given.
        package init(clientStreaming: Bool, serverStreaming: Bool) {
            switch (clientStreaming, serverStreaming) {
            case (false, false): self = .unary
            case (false, true): self = .server
            case (true, false): self = .client
            case (true, true): self = .bidi
            }
        }
    }

    /// One declared method.
    package struct Method: Sendable, Hashable, Codable {
        /// The full name: `acme.Users/GetUser`.
        package var name: String
        /// How its messages flow.
        package var streaming: Streaming
        /// Calls made to it (each attempt of a retried or polled step counts).
        package var calls: Int
        /// Calls by the status they ended with, by code name (`OK`, `NOT_FOUND`; a code gRPC does not define as
        /// its number).
        package var statuses: [String: Int]

        /// A method with these counts.
        package init(name: String, streaming: Streaming, calls: Int = 0, statuses: [String: Int] = [:]) {
            self.name = name
            self.streaming = streaming
            self.calls = calls
            self.statuses = statuses
        }

        /// True when it was called at least once.
        package var isCovered: Bool { calls > 0 }
    }

    // MARK: - Totals

    /// Methods declared and called, over one source or every source.
    package struct Totals: Sendable, Hashable, Codable {
        /// Methods declared.
        package var methods = 0
        /// Methods called at least once.
        package var methodsCalled = 0
        /// Calls made.
        package var calls = 0

        /// No method.
        package init() {}

        /// The share of methods called, in percent, rounded down; 0 without methods.
        package var percent: Int { methods == 0 ? 0 : methodsCalled * 100 / methods }
    }

    /// The totals of one source.
    package static func totals(of source: Source) -> Totals {
        var totals = Totals()
        for method in source.methods {
            totals.methods += 1
            if method.isCovered { totals.methodsCalled += 1 }
            totals.calls += method.calls
        }
        return totals
    }

    /// The totals over every source.
    package var totals: Totals {
        sources.map(Self.totals(of:)).reduce(into: Totals()) { sum, next in
            sum.methods += next.methods
            sum.methodsCalled += next.methodsCalled
            sum.calls += next.calls
        }
    }

    // MARK: - Merging

    /// Why two coverages cannot be merged: they describe one source (same kind and name) with different methods.
    package struct MergeConflict: Error, Sendable, Hashable {
        /// The source's kind.
        package var kind: SourceKind
        /// The source's name.
        package var source: String
        /// A method one side declares and the other does not (or declares with another shape), as `name shape`.
        package var method: String

        /// A conflict over `method` of `kind`'s `source`.
        package init(kind: SourceKind, source: String, method: String) {
            self.kind = kind
            self.source = source
            self.method = method
        }
    }

    /// Adds `other`'s counts to these: sources by kind and name, methods by name, statuses by name; a source only
    /// one side has is kept as it is. Nothing changes when it throws.
    ///
    /// - Throws: ``MergeConflict`` when both describe a source with different methods.
    package mutating func merge(_ other: GRPCCoverage) throws(MergeConflict) {
        var merged = sources
        for source in other.sources {
            guard let index = merged.firstIndex(where: { $0.kind == source.kind && $0.name == source.name }) else {
                merged.append(source)
                continue
            }
            let mine = merged[index].declarations
            let theirs = source.declarations
            guard mine == theirs else {
                let differing =
                    theirs.first { !mine.contains($0) } ?? mine.first { !theirs.contains($0) } ?? "?"
                throw MergeConflict(kind: source.kind, source: source.name, method: differing)
            }
            for (position, method) in source.methods.enumerated() {
                merged[index].methods[position].calls += method.calls
                merged[index].methods[position].statuses.merge(method.statuses, uniquingKeysWith: +)
            }
        }
        sources = merged.sorted(by: Source.precedes)
    }
}
