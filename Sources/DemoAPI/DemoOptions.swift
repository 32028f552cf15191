// Command-line options of `apitest-demo`.

// MARK: - DemoOptions

/// What `apitest-demo [--host H] [--port P] [--log]` was asked to do.
struct DemoOptions: Equatable {
    /// The lifetime of an OAuth2 access token unless `--token-lifetime` says otherwise: one hour.
    static let defaultTokenLifetime = 3600

    /// The address to listen on.
    var host = "127.0.0.1"
    /// The TCP port; 0 asks the system for a free one.
    var port = 8080
    /// Whether to log each request to stderr.
    var log = false
    /// Whether to exit when the parent process goes away (for test harnesses that may be killed).
    var exitWithParent = false
    /// How long the OAuth2 access tokens of `/oauth/token` live, in seconds.
    var tokenLifetime = DemoOptions.defaultTokenLifetime
    /// Whether `/petstore` answers with its seeded faults (docs/demo-api.md, "Seeded faults").
    var seededFaults = false
    /// Whether `--help` was given.
    var help = false

    /// A command-line mistake, reported on stderr with exit status 2.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    static let usage = """
        usage: apitest-demo [--host ADDRESS] [--port PORT] [--token-lifetime SECONDS] [--seeded-faults] [--log]
                            [--exit-with-parent]

        The demo HTTP API that apitest's examples and integration tests run against.

        options:
          --host ADDRESS   address to listen on (default 127.0.0.1)
          --port PORT      TCP port, 0 picks a free one (default 8080)
          --token-lifetime SECONDS
                           how long the access tokens of /oauth/token live (default 3600)
          --seeded-faults  /petstore breaks examples/.openapi/petstore-faults.yaml in one seeded way per
                           contract-fuzzing check (see docs/demo-api.md)
          --log            log every request to stderr, and how long a stop took after a signal
          --exit-with-parent
                           exit as soon as the process that started it is gone
          -h, --help       show this help

        Once listening it prints one line: apitest-demo listening on http://ADDRESS:PORT
        SIGINT or SIGTERM stop it (exit status 0). Endpoints: see docs/demo-api.md.
        """

    /// Parses the arguments after the program name (`--port 8080` and `--port=8080` are both accepted).
    static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions {
        var options = DemoOptions()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
                defer { index += 1 }
                return arguments[index]
            }
            switch name {
            case "--host":
                let host = try value()
                guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else {
                    throw UsageError(description: "invalid --host '\(host)'")
                }
                options.host = host
            case "--port":
                let text = try value()
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw UsageError(description: "invalid --port '\(text)': expected a number from 0 to 65535")
                }
                options.port = port
            case "--token-lifetime":
                let text = try value()
                guard let seconds = Int(text), (1...86_400).contains(seconds) else {
                    throw UsageError(description: "invalid --token-lifetime '\(text)': expected 1 to 86400 seconds")
                }
                options.tokenLifetime = seconds
            case "--log":
                guard inlineValue == nil else { throw UsageError(description: "--log takes no value") }
                options.log = true
            case "--seeded-faults":
                guard inlineValue == nil else { throw UsageError(description: "--seeded-faults takes no value") }
                options.seededFaults = true
            case "--exit-with-parent":
                guard inlineValue == nil else { throw UsageError(description: "--exit-with-parent takes no value") }
                options.exitWithParent = true
            case "-h", "--help":
                options.help = true
            default:
                throw UsageError(description: "unknown argument '\(argument)' (see --help)")
            }
        }
        return options
    }
}
