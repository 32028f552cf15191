import Foundation

@testable import APITestHTTP

/// Responses built from bytes, for the decoder tests (no network).
enum ResponseFixtures {
    static func response(_ body: Data, contentType: String? = nil, status: Int = 200) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return HTTPResponse(
            statusCode: status, httpVersion: "HTTP/1.1", headers: headers, body: body,
            effectiveURL: "http://127.0.0.1/test")
    }

    static func response(_ text: String, contentType: String? = nil) -> HTTPResponse {
        response(Data(text.utf8), contentType: contentType)
    }

    /// The error a decode must throw, or a recorded issue and `nil` when it succeeds.
    static func decodeError(
        _ serializer: some ResponseSerializer, _ response: HTTPResponse
    ) -> ResponseSerializationError? {
        do {
            _ = try serializer.decode(response)
            return nil
        } catch {
            return error
        }
    }
}
