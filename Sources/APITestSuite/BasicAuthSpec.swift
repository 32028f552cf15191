/// HTTP basic authentication credentials.
package struct BasicAuthSpec: Sendable, Hashable {
    package var username: Template
    package var password: Template

    package init(username: Template, password: Template) {
        self.username = username
        self.password = password
    }
}
