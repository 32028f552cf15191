/// A request body: at most one per request.
public enum BodySpec: Sendable, Hashable {
    /// `json:`: any value, sent as JSON.
    case json(TemplateValue)
    /// `form:`: a map sent as `application/x-www-form-urlencoded`.
    case form(TemplateValue)
    /// `body:`: raw text.
    case raw(Template)
    /// `bodyFile:`: a file's bytes; the path was checked at load time to be a readable regular file.
    case file(absolutePath: String)
}
