import APITestSupport
import ArgumentParser

/// A size on the command line: `200MB`, `64MiB`, `1.5GB`, or a bare number of bytes; `0` for no limit.
struct ByteSizeArgument: ExpressibleByArgument, Equatable, Sendable {
    let size: ByteSize
    /// The argument as given, for messages.
    let text: String

    init?(argument: String) {
        guard let size = try? ByteSize(parsing: argument) else { return nil }
        self.size = size
        self.text = argument
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
