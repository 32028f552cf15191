import APITestSupport

/// Why the `OTEL_*` environment makes no exporter: the variable concerned and what is wrong with it. A run with
/// one stops before anything is sent (the command line exits with a usage error), as a bad flag does.
package struct TelemetrySettingsError: Error, Sendable, Hashable {
    /// What is wrong.
    package enum Kind: Sendable, Hashable {
        /// The endpoint is not an `http://` or `https://` URL with a host.
        case invalidEndpoint(String)
        /// A protocol apitest does not speak (`grpc`) or no protocol at all.
        case unsupportedProtocol(String)
        /// A `key=value` list (headers, resource attributes) has an entry without `=` or with an empty key: its
        /// number, from 1 (not its text: a header entry may hold a token).
        case invalidEntry(Int)
        /// A timeout that is not a whole number of milliseconds.
        case invalidTimeout(String)
    }

    /// The environment variable that holds the bad value.
    package var variable: String
    package var kind: Kind

    /// The problem `kind` with `variable`.
    package init(variable: String, _ kind: Kind) {
        self.variable = variable
        self.kind = kind
    }

    /// The one sentence saying what is wrong, naming the variable: `OTEL_EXPORTER_OTLP_PROTOCOL: ...`.
    package var message: String {
        let detail: String
        switch kind {
        case .invalidEndpoint(let value):
            detail = "'\(Self.shown(value))' is not an http:// or https:// URL"
        case .unsupportedProtocol(let value):
            detail =
                "'\(Self.shown(value))' is not supported; apitest exports over OTLP/HTTP: use http/protobuf or http/json"
        case .invalidEntry(let number):
            detail = "entry \(number) is not a key=value pair (entries are key=value, separated by commas)"
        case .invalidTimeout(let value):
            detail = "'\(Self.shown(value))' is not a timeout in milliseconds"
        }
        return "\(variable): \(detail)"
    }

    /// `value` as a message quotes it: on one line, escaped, cut at 200 characters.
    private static func shown(_ value: String) -> String {
        value.truncated(to: 200).shownInMessage
    }
}
