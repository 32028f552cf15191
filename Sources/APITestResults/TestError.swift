package import APITestSupport

/// Why a step could not complete: its kind and a sentence for people, already rendered and masked.
///
/// Unlike the errors of the layers below (`HTTPError`, `TemplateError`), which are typed values rendered on demand,
/// this is a results-layer value that holds text: reports are written from it, the reporting layer depends on the
/// results layer only (it knows neither HTTP nor suites), and a secret must be masked before anything leaves the
/// runner. What callers tell apart stays typed (`kind`, `undefinedVariable`); the runner renders the message from
/// typed causes in one place (`TestError.Cause` in `APITestRunner/TestError+Rendering.swift`).
package struct TestError: Error, Sendable, Hashable {
    /// What kind of problem it is.
    package var kind: Kind
    /// A sentence for people, with the values it quotes from outside (a server's words) kept whole until sealing
    /// masks and cuts them.
    package var text: MessageText
    /// Where in the suite the problem is, when known.
    package var location: SourceLocation?
    /// The variable a template named but had no value for (`kind == .template`), so that callers can tell which
    /// without reading the message.
    package var undefinedVariable: String?

    /// An error of `kind` saying `text`, at `location`.
    package init(kind: Kind, text: MessageText, location: SourceLocation? = nil, undefinedVariable: String? = nil) {
        self.kind = kind
        self.text = text
        self.location = location
        self.undefinedVariable = undefinedVariable
    }

    /// An error of `kind` with `message`, quoting nothing, at `location`.
    package init(kind: Kind, message: String, location: SourceLocation? = nil, undefinedVariable: String? = nil) {
        self.init(kind: kind, text: MessageText(message), location: location, undefinedVariable: undefinedVariable)
    }

    /// A sentence for people (in a sealed result, masked and cut).
    package var message: String {
        get { text.description }
        set { text = MessageText(newValue) }
    }
}

// MARK: - Codable

extension TestError: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, message, location, undefinedVariable
    }

    /// An error as ``encode(to:)`` wrote it.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            message: try container.decode(String.self, forKey: .message),
            location: try container.decodeIfPresent(SourceLocation.self, forKey: .location),
            undefinedVariable: try container.decodeIfPresent(String.self, forKey: .undefinedVariable))
    }

    /// The error with its message as one string.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(undefinedVariable, forKey: .undefinedVariable)
    }
}

// MARK: - Kinds

extension TestError {
    /// What kind of problem stopped the step: one of the runner's own, or a transfer that failed for one of the HTTP
    /// layer's reasons, held as that reason (`TransferFailureReason`, which `HTTPError.Reason` is), not copied. The
    /// raw values are what reports show (`[connectionRefused]`, JUnit's `type`, TAP's and JSON's `kind`): the
    /// runner's words, or the reason's own; the message says the rest.
    package enum Kind: Sendable, Hashable, Codable, CaseIterable, RawRepresentable {
        // MARK: Before sending
        /// A template could not be rendered (an undefined variable, an unset environment variable).
        case template
        /// The request could not be built for another reason.
        case request
        /// The suite's `security:` block or the TLS flags could not be turned into a policy.
        case security
        /// Not run: the suite's setup failed.
        case setup
        /// Not run: the host was found unreachable earlier in the run.
        case unreachable
        /// The run was interrupted (Ctrl-C) before or during the step, a transfer cancelled included.
        case cancelled
        /// The credentials the request needs could not be had: an OAuth2 token endpoint refused or failed.
        case authentication

        // MARK: The transfer
        /// The transfer failed for `reason` (never `.cancelled`, which is ``cancelled``: see ``init(_:)``).
        case transfer(TransferFailureReason)

        /// The kind of a transfer that failed for `reason`: the one conversion from the HTTP layer's reasons (a
        /// cancelled transfer is an interruption).
        package init(_ reason: TransferFailureReason) {
            self = reason == .cancelled ? .cancelled : .transfer(reason)
        }

        /// The runner's kinds, then one per transfer reason, in the reasons' order.
        package static var allCases: [Kind] {
            [.template, .request, .security, .setup, .unreachable, .cancelled, .authentication]
                + TransferFailureReason.allCases.map(Kind.init)
                .filter { $0 != .cancelled }
        }

        /// The word reports show.
        package var rawValue: String {
            switch self {
            case .template: "template"
            case .request: "request"
            case .security: "security"
            case .setup: "setup"
            case .unreachable: "unreachable"
            case .cancelled: "cancelled"
            case .authentication: "authentication"
            case .transfer(let reason): reason.rawValue
            }
        }

        /// The kind reports call `rawValue`.
        package init?(rawValue: String) {
            guard let kind = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = kind
        }

        /// Kinds are equal when reports call them the same (`.transfer(.cancelled)` is `.cancelled`).
        package static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue == rhs.rawValue }

        package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

        /// Reads the word reports show.
        package init(from decoder: any Decoder) throws {
            let word = try decoder.singleValueContainer().decode(String.self)
            guard let kind = Kind(rawValue: word) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "unknown error kind '\(word)'"))
            }
            self = kind
        }

        /// Writes the word reports show.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
