package import APITestSupport

/// A suite's `response:` block: the order of the response decoders and AFNetworking's option to drop JSON keys
/// whose value is null.
package struct ResponseDecoding: Sendable, Hashable {
    /// The decoders, in the order they are asked; `nil` for the standard order.
    package var decoders: [ResponseDecoderName]?
    /// Drop object members whose value is null (at every depth) before checks see the JSON body.
    package var removesKeysWithNullValues: Bool
    /// The media types every response must have (`application/json`, `+json`, `text/*`); `nil` accepts any.
    package var acceptableContentTypes: [String]?
    package var location: SourceLocation?

    /// The decoder names a suite can write, in the standard order.
    package static var decoderNames: [String] { ResponseDecoderName.allCases.map(\.rawValue) }

    package init(decoders: [ResponseDecoderName]? = nil, removesKeysWithNullValues: Bool = false) {
        self.decoders = decoders
        self.removesKeysWithNullValues = removesKeysWithNullValues
    }
}
