import APITestSupport

/// A suite's `response:` block: the order of the response decoders and AFNetworking's option to drop JSON keys
/// whose value is null.
public struct ResponseDecoding: Sendable, Hashable {
    /// The decoders, in the order they are asked; `nil` for the standard order.
    public var decoders: [ResponseDecoderName]?
    /// Drop object members whose value is null (at every depth) before checks see the JSON body.
    public var removesKeysWithNullValues: Bool
    /// The media types every response must have (`application/json`, `+json`, `text/*`); `nil` accepts any.
    public var acceptableContentTypes: [String]?
    public var location: SourceLocation?

    /// The decoder names a suite can write, in the standard order.
    public static var decoderNames: [String] { ResponseDecoderName.allCases.map(\.rawValue) }

    public init(decoders: [ResponseDecoderName]? = nil, removesKeysWithNullValues: Bool = false) {
        self.decoders = decoders
        self.removesKeysWithNullValues = removesKeysWithNullValues
    }
}
