import APITestSupport
import ArgumentParser

/// A duration on the command line: `250ms`, `10s`, `1.5s`, `2m`, or a bare number of seconds.
struct DurationArgument: ExpressibleByArgument, Equatable, Sendable {
    let duration: Duration
    /// The argument as given, for messages.
    let text: String

    init?(argument: String) {
        guard let duration = try? DurationParser.parse(argument) else { return nil }
        self.duration = duration
        self.text = argument
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
