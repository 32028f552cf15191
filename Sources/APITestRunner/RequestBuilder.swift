import APITestHTTP
import APITestJSON
import APITestResults
import APITestSuite
import Foundation

/// Renders a step's request templates with the test's context and serializes them into an `HTTPRequest`.
struct RequestBuilder: Sendable {
    let options: RunOptions

    /// The request for `spec`; throws `TestError` when a template or the URL cannot be rendered.
    func build(_ spec: RequestSpec, runtime: SuiteRuntime, context: TemplateContext) throws(TestError) -> HTTPRequest {
        do {
            var headers = HTTPHeaders()
            // Suite defaults first; a request header of the same name replaces them.
            let requestNames = Set(spec.headers.map { $0.name.lowercased() })
            for header in runtime.suite.defaults.headers where !requestNames.contains(header.name.lowercased()) {
                headers.add(name: header.name, value: try header.value.render(context))
            }
            for header in spec.headers {
                headers.add(name: header.name, value: try header.value.render(context))
            }
            // The loader allows `contentType` only with `body` and `bodyFile`.
            let contentType = try spec.contentType?.render(context)
            let body: RequestSerializer.Body
            switch spec.body {
            case .none: body = .none
            case .json(let value): body = .json(try value.render(context))
            case .form(let value): body = .form(try value.render(context))
            case .raw(let template): body = .raw(Data(try template.render(context).utf8), contentType: contentType)
            case .file(let path): body = .file(path: path, contentType: contentType)
            }
            var basicAuth: (username: String, password: String)?
            if let auth = spec.basicAuth {
                basicAuth = (try auth.username.render(context), try auth.password.render(context))
            }
            var request = try runtime.serializer.request(
                method: spec.method, url: try spec.url.render(context), query: try spec.query?.render(context),
                headers: headers, body: body, basicAuth: basicAuth)
            request.timeout = spec.timeout ?? runtime.suite.defaults.timeout ?? options.timeout
            request.connectTimeout = options.connectTimeout
            request.followRedirects = spec.followRedirects ?? runtime.suite.defaults.followRedirects
            request.maxRedirects = spec.maxRedirects ?? runtime.suite.defaults.maxRedirects ?? 10
            request.cookieJar = runtime.cookieJar
            request.maxBodySize = options.maxBodySize
            return request
        } catch let error as TemplateError {
            throw TestError(kind: "template", message: error.message, location: error.location ?? spec.location)
        } catch let error as HTTPError {
            throw TestError(kind: error.reason.rawValue, message: error.message, location: spec.url.location)
        } catch {
            throw TestError(kind: "request", message: "\(error)", location: spec.location)
        }
    }
}
