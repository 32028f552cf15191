package import APITestHTTP
import APITestSupport
import Foundation
import Synchronization

/// Sends spans to the OTLP/HTTP endpoint of ``TelemetrySettings``, one batch per request, in the order they were
/// handed over, through apitest's own HTTP layer (libcurl: the proxy variables it honours, full TLS verification
/// against the system's trust store). An export that fails is counted, never retried and never fails the run;
/// ``finish()`` returns the one warning saying how many spans were not exported and why, after waiting at most the
/// export timeout.
package final class OTLPExporter: Sendable {
    private let settings: TelemetrySettings
    private let version: String
    private let transport: any HTTPTransport
    /// The session the exporter made and shuts down; nil when it was given a transport.
    private let session: SessionManager?
    private let queue: AsyncStream<[TelemetrySpan]>.Continuation
    private let worker: Task<Void, Never>
    private let tally = ExportTally()

    /// What was handed over and what came of it, shared with the task that sends.
    private final class ExportTally: Sendable {
        struct Counts {
            var handed = 0
            var exported = 0
            /// Why the first export that failed did.
            var firstFailure: String?
        }

        let counts = Mutex(Counts())
    }

    /// An exporter to `settings.endpoint`, encoding apitest `version` as the scope's version, sending through
    /// `transport` (a session of its own when nil).
    package init(settings: TelemetrySettings, version: String, transport: (any HTTPTransport)? = nil) {
        self.settings = settings
        self.version = version
        var session: SessionManager?
        if transport == nil {
            var configuration = SessionConfiguration(maxConnections: 1)
            configuration.timeout = settings.timeout
            configuration.connectTimeout = settings.timeout
            session = SessionManager(configuration: configuration)
        }
        self.session = session
        let transport = transport ?? session!
        self.transport = transport
        let tally = self.tally
        let (stream, queue) = AsyncStream<[TelemetrySpan]>.makeStream()
        self.queue = queue
        let request = Self.request(settings: settings)
        worker = Task {
            for await batch in stream {
                guard !Task.isCancelled else { break }
                var post = request
                let body =
                    settings.wireProtocol == .httpJSON
                    ? OTLPJSONEncoder.encode(batch, resource: settings.resource, version: version)
                    : OTLPProtobufEncoder.encode(batch, resource: settings.resource, version: version)
                post.body = .data(Data(body))
                let failure = await Self.send(post, through: transport)
                tally.counts.withLock { tally in
                    if let failure {
                        tally.firstFailure = tally.firstFailure ?? failure
                    } else {
                        tally.exported += batch.count
                    }
                }
            }
        }
    }

    /// Queues `spans` for export; returns at once.
    package func export(_ spans: [TelemetrySpan]) {
        guard !spans.isEmpty else { return }
        tally.counts.withLock { $0.handed += spans.count }
        queue.yield(spans)
    }

    /// Waits until every batch handed over has been sent, or the export timeout has passed (then the export in
    /// flight is abandoned); shuts the exporter's session down. The warning to print when some spans were not
    /// exported, nil when all were.
    package func finish() async -> String? {
        queue.finish()
        let worker = self.worker
        let done = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await worker.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: self.settings.timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !done {
            worker.cancel()
            await worker.value
        }
        session?.shutdown()
        let tally = tally.counts.withLock { $0 }
        let missing = tally.handed - tally.exported
        guard missing > 0 else { return nil }
        let reason =
            tally.firstFailure ?? "the export did not finish within \(DurationFormatter.format(settings.timeout))"
        return "warning: apitest: \(missing) span\(missing == 1 ? "" : "s") not exported to "
            + "\(Self.shown(settings.endpoint)): \(reason)"
    }

    // MARK: - Requests

    /// The POST every batch is sent with, but its body.
    private static func request(settings: TelemetrySettings) -> HTTPRequest {
        var headers = HTTPHeaders()
        for header in settings.headers { headers.set(name: header.name, value: header.value) }
        headers.set(
            name: "Content-Type",
            value: settings.wireProtocol == .httpJSON ? "application/json" : "application/x-protobuf")
        return HTTPRequest(
            method: "POST", url: settings.endpoint, headers: headers, timeout: settings.timeout,
            connectTimeout: settings.timeout, followRedirects: false, maxBodySize: 1 << 20)
    }

    /// Sends `request`; why it failed (no answer, or not a 2xx one), nil when the collector took it.
    private static func send(_ request: HTTPRequest, through transport: any HTTPTransport) async -> String? {
        do {
            let response = try await transport.perform(request)
            guard (200..<300).contains(response.statusCode) else {
                let phrase = response.reasonPhrase.isEmpty ? "" : " \(response.reasonPhrase)"
                return "the collector answered \(response.statusCode)\(phrase)".shownInMessage
            }
            return nil
        } catch let error as HTTPError {
            return error.message
        } catch {
            return "interrupted"
        }
    }

    /// `endpoint` as a warning shows it: without user information (which may be a credential), on one line.
    static func shown(_ endpoint: String) -> String {
        guard var components = URLComponents(string: endpoint) else { return endpoint.shownInMessage }
        components.user = nil
        components.password = nil
        return (components.string ?? endpoint).shownInMessage
    }
}
