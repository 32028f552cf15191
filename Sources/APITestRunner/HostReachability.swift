package import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport
import Synchronization

/// The hosts found unreachable during a run: once a transfer could not connect to a host, the remaining tests
/// that target it error at once with that cause instead of each waiting for its own timeout.
///
/// Keyed by (scheme, host, port) of the request URL. A host is marked by the first transfer that fails to connect
/// (host not found, connection refused, could not connect, or a connect that timed out); transfers already in
/// flight end on their own.
package final class HostReachability: Sendable {
    /// Why a host is considered unreachable, and which test found out.
    package struct Mark: Sendable, Hashable {
        package var endpoint: HostEndpoint
        /// Why the transfer could not connect; `cause` says it in a few words.
        package var reason: HTTPError.Reason
        /// `suite name › test name` of the test whose transfer failed first.
        package var since: String
    }

    private let marks = Mutex<[HostEndpoint: Mark]>([:])

    package init() {}

    /// The mark of `url`'s host, if it was found unreachable.
    package func mark(for url: String) -> Mark? {
        // The common case, every host reachable so far, needs no parsing of the URL.
        guard !marks.withLock({ $0.isEmpty }), let endpoint = HostEndpoint(url: url) else { return nil }
        return marks.withLock { $0[endpoint] }
    }

    /// Records that `url`'s host could not be connected to, when `error` says so; the first mark of a host stays.
    package func record(_ error: HTTPError, url: String, suiteName: String, testName: String) {
        guard error.failedToConnect, let endpoint = HostEndpoint(url: url) else { return }
        let mark = Mark(
            endpoint: endpoint, reason: error.reason,
            since: TestSelection.fullName(suite: suiteName, test: testName))
        marks.withLock { marks in
            if marks[endpoint] == nil { marks[endpoint] = mark }
        }
    }

    /// Every host found unreachable so far, sorted.
    package var unreachable: [Mark] { marks.withLock { Array($0.values) }.sorted { $0.endpoint < $1.endpoint } }
}
