/// HTTP basic authentication credentials.
public struct BasicAuthSpec: Sendable, Hashable {
    public var username: Template
    public var password: Template

    public init(username: Template, password: Template) {
        self.username = username
        self.password = password
    }
}
