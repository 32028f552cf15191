public import APITestSupport
public import Foundation

/// An ordered list of response serializers: the first that accepts a response decodes it, as in AFNetworking's
/// `AFCompoundResponseSerializer`.
public struct ResponseSerializerChain: Sendable {
    public let serializers: [any ResponseSerializer]

    public init(_ serializers: [any ResponseSerializer]) {
        self.serializers = serializers
    }

    /// json, xml, plist, image, text, binary.
    public static let standard = ResponseSerializerChain(order: ResponseDecoderName.allCases)

    /// A chain of the named decoders in the given order (a suite's configured order); a name given again adds
    /// nothing (the suite loader reports it).
    public init(order names: [ResponseDecoderName], removesKeysWithNullValues: Bool = false) {
        var serializers: [any ResponseSerializer] = []
        var seen: Set<ResponseDecoderName> = []
        for name in names where seen.insert(name).inserted {
            switch name {
            case .json: serializers.append(JSONResponseSerializer(removesKeysWithNullValues: removesKeysWithNullValues))
            case .xml: serializers.append(XMLResponseSerializer())
            case .plist: serializers.append(PropertyListResponseSerializer())
            case .image: serializers.append(ImageResponseSerializer())
            case .text: serializers.append(TextResponseSerializer())
            case .binary: serializers.append(BinaryResponseSerializer())
            }
        }
        self.serializers = serializers
    }

    /// The first serializer that accepts the response, if any.
    public func serializer(for response: HTTPResponse) -> (any ResponseSerializer)? {
        serializers.first { $0.accepts(response) }
    }

    /// The body decoded by the first serializer that accepts the response; an error when that serializer fails
    /// (the chain does not fall through to later serializers) or when none accepts the response.
    public func decode(_ response: HTTPResponse) -> Result<DecodedBody, ResponseSerializationError> {
        guard let serializer = serializer(for: response) else {
            let type = response.headers["Content-Type"].map { "content type '\($0)'" } ?? "no Content-Type"
            let names = serializers.map(\.name).joined(separator: ", ")
            return .failure(
                ResponseSerializationError(
                    decoder: "chain", reason: "no decoder accepts a response with \(type) (decoders: \(names))"))
        }
        do {
            return .success(try serializer.decode(response))
        } catch {
            return .failure(error)
        }
    }

    /// Whether a status code is acceptable: AFNetworking's `acceptableStatusCodes`, 2xx unless a test states its
    /// own expectation.
    public static func validate(statusCode: Int, acceptable: IndexSet = IndexSet(200..<300)) -> Bool {
        acceptable.contains(statusCode)
    }
}
