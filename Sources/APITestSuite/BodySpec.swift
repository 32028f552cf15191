package import APITestSupport
import APITestYAML

/// A request body: at most one per request.
package enum BodySpec: Sendable, Hashable {
    /// `json:`: any value, sent as JSON.
    case json(TemplateValue)
    /// `form:`: a map sent as `application/x-www-form-urlencoded`.
    case form(TemplateValue)
    /// `body:`: raw text.
    case raw(Template)
    /// `bodyFile:`: a file's bytes; the path was checked at load time to be a readable regular file.
    case file(absolutePath: String)
    /// `multipart:`: `multipart/form-data` parts; file parts are streamed from disk.
    case multipart([MultipartPartSpec])
    /// `plist:`: any value but null, sent as a property list (`plistFormat: xml` or `binary`).
    case plist(TemplateValue, format: PropertyListFormat)
    /// `xml:` with text: an XML document sent as `application/xml`.
    case xml(Template)
    /// `xml: {file: path}`: an XML file streamed from disk as `application/xml`.
    case xmlFile(absolutePath: String)
}

/// The encoding of a `plist:` body.
package enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    case xml
    case binary
}

/// One part of a `multipart:` body.
package struct MultipartPartSpec: Sendable, Hashable {
    /// Where the part's content comes from.
    package enum Content: Sendable, Hashable {
        /// `value:` a text field.
        case value(Template)
        /// `data:` inline content sent as a file part.
        case data(Template)
        /// `file:` a file streamed from disk; the path was checked at load time.
        case file(absolutePath: String)
    }

    package var name: Template
    package var content: Content
    package var filename: Template?
    package var contentType: Template?
    package var headers: [HeaderSpec]
    package var location: SourceLocation

    package init(
        name: Template, content: Content, filename: Template? = nil, contentType: Template? = nil,
        headers: [HeaderSpec] = [], location: SourceLocation
    ) {
        self.name = name
        self.content = content
        self.filename = filename
        self.contentType = contentType
        self.headers = headers
        self.location = location
    }
}

// MARK: - Templates

extension BodySpec {
    /// Every template the body renders, in document order.
    package var templates: [Template] {
        switch self {
        case .json(let value), .form(let value), .plist(let value, _): return value.templates
        case .raw(let template), .xml(let template): return [template]
        case .file, .xmlFile: return []
        case .multipart(let parts): return parts.flatMap(\.templates)
        }
    }
}

extension MultipartPartSpec {
    /// Every template the part renders.
    package var templates: [Template] {
        var result = [name]
        switch content {
        case .value(let template), .data(let template): result.append(template)
        case .file: break
        }
        if let filename { result.append(filename) }
        if let contentType { result.append(contentType) }
        result += headers.map(\.value)
        return result
    }
}
