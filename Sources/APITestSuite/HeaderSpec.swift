import APITestSupport

/// A request header whose value is a template.
public struct HeaderSpec: Sendable, Hashable {
    public var name: String
    public var value: Template
    public var location: SourceLocation

    public init(name: String, value: Template, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}
