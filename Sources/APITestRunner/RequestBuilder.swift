import APITestHTTP
import APITestJSON
import APITestResults
import APITestSuite
import Foundation

/// Renders a step's request templates with the test's context and serializes them into an `HTTPRequest`.
struct RequestBuilder: Sendable {
    /// The run's limit on response bodies kept in memory (`--max-response-size`), for suites without
    /// `defaults.maxResponseSize`; 0 for none.
    let maxResponseSize: Int
    /// The run's transport flags, which replace the suites' transport settings of the same name.
    let transportOverrides: TransportOverrides
    /// `!transportOverrides.isEmpty`, found once (the comparison copied and destroyed an empty set for every
    /// request).
    let overridesTransport: Bool

    init(
        maxResponseSize: Int = RunOptions.defaultMaxResponseSize,
        transportOverrides: TransportOverrides = TransportOverrides()
    ) {
        self.maxResponseSize = maxResponseSize
        self.transportOverrides = transportOverrides
        overridesTransport = !transportOverrides.isEmpty
    }

    /// The request for `spec`; throws `TestError` when a template or the URL cannot be rendered. `accessToken` is
    /// the token an `oauth2` setting obtained for it.
    func build(
        _ spec: RequestSpec, runtime: SuiteRuntime, context: TemplateContext, accessToken: String? = nil
    ) throws(TestError) -> HTTPRequest {
        try build(spec, runtime: runtime, context: context, serializer: runtime.serializer, accessToken: accessToken)
    }

    /// The request for `spec`, resolved by `serializer` rather than the runtime's own: a reproduce command renders
    /// the suite's base URL with stand-ins for its secrets (`ReproduceBuilder`).
    func build(
        _ spec: RequestSpec, runtime: SuiteRuntime, context: TemplateContext, serializer: RequestSerializer,
        accessToken: String? = nil
    ) throws(TestError) -> HTTPRequest {
        do {
            var headers = HTTPHeaders()
            // The fields whose values derive from secrets: sent only to the request's origin. Their names, made into
            // an `OriginBoundHeaders` only when there are any (its generic initializer, called across modules, costs
            // some 1,600 instructions even empty).
            var originBound: [String] = []
            // Suite defaults first; a request header of the same name replaces them, and a request's `auth: none`
            // drops a default `Authorization` header (`Self.dropsDefaultHeader`).
            let defaults = runtime.suite.defaults.headers
            if !defaults.isEmpty {
                let requestNames = Set(spec.headers.map { $0.name.lowercased() })
                for header in defaults
                where !requestNames.contains(header.name.lowercased())
                    && !Self.dropsDefaultHeader(header.name, for: spec)
                {
                    headers.add(name: header.name, value: try header.value.render(context))
                    if context.usesSecret(header.value) { originBound.append(header.name) }
                }
            }
            for header in spec.headers {
                headers.add(name: header.name, value: try header.value.render(context))
                if context.usesSecret(header.value) { originBound.append(header.name) }
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
            case .multipart(let parts): body = .multipart(try multipart(parts, context: context))
            case .plist(let value, let format):
                body = .plist(try value.render(context), format: format == .binary ? .binary : .xml)
            case .xml(let template):
                body = .raw(Data(try template.render(context).utf8), contentType: "application/xml")
            case .xmlFile(let path): body = .file(path: path, contentType: "application/xml")
            }
            let authentication = try authentication(
                spec, defaults: runtime.suite.defaults, context: context, accessToken: accessToken)
            if let token = authentication.bearer { headers.add(name: "Authorization", value: "Bearer \(token)") }
            // A secret in the URL is percent-encoded: one value, which the server cannot split (`renderURL`).
            let url = try spec.url.renderURL(context)
            // A URL that renders to nothing would resolve to the base URL: the load-time error, at run time.
            if RequestSpec.isBlankURL(url) {
                throw BlankRequestURL(template: spec.url.source, rendered: url, hasBaseURL: serializer.baseURL != nil)
            }
            var request = try serializer.request(
                method: spec.method, url: url, query: try spec.query?.render(context),
                headers: headers, body: body, basicAuth: authentication.basic)
            request.authentication = authentication.scheme
            if !originBound.isEmpty || !request.originBoundHeaders.isEmpty {
                request.originBoundHeaders = OriginBoundHeaders(originBound)
            }
            // Asked first: `spec.transport` copied the setting out of its box for every request.
            if spec.hasTransport || runtime.suite.defaults.transport != nil || overridesTransport {
                try applyTransport(spec.transport, defaults: runtime.suite.defaults, context: context, to: &request)
            }
            // Without a request or suite timeout the session's default applies (`--timeout`).
            request.timeout = spec.timeout ?? runtime.suite.defaults.timeout
            request.followRedirects = spec.followRedirects ?? runtime.suite.defaults.followRedirects
            request.maxRedirects = spec.maxRedirects ?? runtime.suite.defaults.maxRedirects ?? 10
            // `compressed: false` sends no Accept-Encoding and decodes nothing, as curl without --compressed.
            let compressed = spec.compressed ?? runtime.suite.defaults.compressed ?? true
            request.acceptEncoding = compressed ? "" : nil
            request.maxBodySize = Self.transferLimit(runtime.suite.defaults.maxResponseSize ?? maxResponseSize)
            request.cookieJar = runtime.cookieJar
            request.security = runtime.security
            return request
        } catch let error as TemplateError {
            throw TestError(.template(error), location: spec.location)
        } catch let error as HTTPError {
            throw TestError(.http(error), location: spec.url.location)
        } catch let error as BlankRequestURL {
            throw TestError(.request(error), location: spec.url.location)
        } catch {
            throw TestError(.request(error), location: spec.location)
        }
    }

    /// The transfer's body limit for a `maxResponseSize` setting: the setting itself, `0` meaning no limit. The one
    /// place the setting becomes a transfer option.
    static func transferLimit(_ setting: Int) -> Int {
        setting == 0 ? Int.max : setting
    }

    /// The form for `parts`: text fields, inline data and files streamed from disk.
    private func multipart(_ parts: [MultipartPartSpec], context: TemplateContext) throws -> MultipartFormData {
        var form = MultipartFormData()
        for part in parts {
            var headers = HTTPHeaders()
            for header in part.headers { headers.add(name: header.name, value: try header.value.render(context)) }
            let name = try part.name.render(context)
            let filename = try part.filename?.render(context)
            let contentType = try part.contentType?.render(context)
            switch part.content {
            case .value(let template):
                form.append(
                    MultipartFormData.Part(
                        name: name, contentType: contentType, headers: headers,
                        content: .data(Data(try template.render(context).utf8))))
            case .data(let template):
                form.append(
                    data: Data(try template.render(context).utf8), name: name, filename: filename,
                    contentType: contentType, headers: headers)
            case .file(let path):
                form.append(fileAt: path, name: name, filename: filename, contentType: contentType, headers: headers)
            }
        }
        return form
    }
}

// MARK: - A blank URL

/// A request whose `url` template renders to an empty or blank text (`url: "{{ path }}"` with `path` empty): the
/// error `url: ""` gets when the suite loads, with what the template was, at the `url`.
struct BlankRequestURL: Error, CustomStringConvertible {
    /// The `url` as written.
    var template: String
    /// What it rendered to.
    var rendered: String
    /// Whether the suite has a base URL (which the request would have gone to).
    var hasBaseURL: Bool

    /// `'url' is empty: '{{ path }}' renders to nothing; write './' for the baseURL itself; ...`.
    var description: String {
        RequestSpec.emptyURLMessage(rendered) + ": '\(template)' renders to "
            + (rendered.isEmpty ? "nothing" : "only spaces") + "; " + RequestSpec.emptyURLNote(hasBaseURL: hasBaseURL)
    }
}
