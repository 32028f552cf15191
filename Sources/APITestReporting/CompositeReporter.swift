import APITestResults

/// Hands every run event to several reporters, in the order given: the console and each report file at once.
///
/// The runner delivers events one at a time, so each reporter still sees them one at a time and in order.
public final class CompositeReporter: Reporter {
    /// The reporters that receive every event.
    public let reporters: [any Reporter]

    public init(_ reporters: [any Reporter]) {
        self.reporters = reporters
    }

    public func handle(_ event: RunEvent) {
        for reporter in reporters { reporter.handle(event) }
    }
}
