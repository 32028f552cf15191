package import APITestSupport

/// An assertion that did not hold: where it is written, what it checked, what it expected and what it got.
package struct AssertionFailure: Sendable, Hashable {
    package var location: SourceLocation
    /// What was checked, e.g. `status`, `header Content-Type`, `jsonpath $.users[0].name`.
    package var subject: String
    /// The one-line summary with the values it quotes kept whole until sealing masks and cuts them.
    package var text: MessageText
    package var expected: String?
    package var actual: String?

    /// A failure whose summary is `text`.
    package init(
        location: SourceLocation, subject: String, text: MessageText, expected: String? = nil, actual: String? = nil
    ) {
        self.location = location
        self.subject = subject
        self.text = text
        self.expected = expected
        self.actual = actual
    }

    /// A failure whose summary is `message`, quoting nothing.
    package init(
        location: SourceLocation, subject: String, message: String, expected: String? = nil, actual: String? = nil
    ) {
        self.init(location: location, subject: subject, text: MessageText(message), expected: expected, actual: actual)
    }

    /// A one-line summary, e.g. `expected status 201, got 400` (in a sealed result, masked and cut).
    package var message: String {
        get { text.description }
        set { text = MessageText(newValue) }
    }
}

// MARK: - Codable

extension AssertionFailure: Codable {
    private enum CodingKeys: String, CodingKey {
        case location, subject, message, expected, actual
    }

    /// A failure as ``encode(to:)`` wrote it.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            location: try container.decode(SourceLocation.self, forKey: .location),
            subject: try container.decode(String.self, forKey: .subject),
            message: try container.decode(String.self, forKey: .message),
            expected: try container.decodeIfPresent(String.self, forKey: .expected),
            actual: try container.decodeIfPresent(String.self, forKey: .actual))
    }

    /// The failure with its summary as one string.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location, forKey: .location)
        try container.encode(subject, forKey: .subject)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(expected, forKey: .expected)
        try container.encodeIfPresent(actual, forKey: .actual)
    }
}
