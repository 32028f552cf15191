import APITestSupport
package import Foundation

@testable package import APITestHTTP

/// The whole body of a form in memory, the bytes a transfer streams (the test's view of ``MultipartFormData``: a
/// run never holds a form whole). Shared by the HTTP tests and the integration tests.
extension MultipartFormData {
    package func encoded() throws(HTTPError) -> Data {
        var result = Data()
        for segment in try segments() {
            switch segment {
            case .bytes(let data): result.append(data)
            case .file(let path, _):
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw HTTPError(.bodyFileUnreadable(path: path, problem: .notLoaded))
                }
                result.append(data)
            }
        }
        return result
    }
}
