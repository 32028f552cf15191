package import APITestSupport

/// A request header whose value is a template.
package struct HeaderSpec: Sendable, Hashable {
    package var name: String
    package var value: Template
    package var location: SourceLocation

    package init(name: String, value: Template, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}
