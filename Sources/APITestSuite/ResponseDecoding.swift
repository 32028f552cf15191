import APITestSupport

/// A suite's `response:` block: the order of the response decoders and AFNetworking's option to drop JSON keys
/// whose value is null.
public struct ResponseDecoding: Sendable, Hashable {
    /// The decoder names, in the order they are asked; `nil` for the standard order.
    public var decoders: [String]?
    /// Drop object members whose value is null (at every depth) before checks see the JSON body.
    public var removesKeysWithNullValues: Bool
    /// The media types every response must have (`application/json`, `+json`, `text/*`); `nil` accepts any.
    public var acceptableContentTypes: [String]?
    public var location: SourceLocation?

    /// The decoders a suite can name, in the standard order.
    public static let decoderNames = ["json", "xml", "plist", "image", "text", "binary"]

    public init(decoders: [String]? = nil, removesKeysWithNullValues: Bool = false) {
        self.decoders = decoders
        self.removesKeysWithNullValues = removesKeysWithNullValues
    }
}
