package import APITestResults

/// Hands every run event to several reporters, in the order given: the console and each report file at once.
///
/// The runner delivers events one at a time, so each reporter still sees them one at a time and in order.
package final class CompositeReporter: Reporter {
    /// The reporters that receive every event.
    package let reporters: [any Reporter]

    package init(_ reporters: [any Reporter]) {
        self.reporters = reporters
    }

    package func handle(_ event: RunEvent) {
        for reporter in reporters { reporter.handle(event) }
    }

    /// The most any of the reporters reads.
    package var resultDetail: ResultDetail {
        reporters.map(\.resultDetail).max() ?? .failures
    }
}
