/// A `.proto` file as its `FileDescriptorProto` describes it: its package, imports, and the full names of what it
/// declares (the declarations themselves are in ``ProtoSchema``).
package struct ProtoFileDescriptor: Sendable, Hashable {
    /// The file's name as `protoc` gave it (`acme/users.proto`).
    package var name: String
    /// The package (`acme`), empty when the file declares none.
    package var package: String
    /// The files it imports.
    package var dependencies: [String]
    /// The file's syntax.
    package var syntax: ProtoSyntax
    /// The full names of every message it declares, nested ones included.
    package var messageNames: [String]
    /// The full names of every enum it declares, nested ones included.
    package var enumNames: [String]
    /// The full names of its services.
    package var serviceNames: [String]

    /// A file with these properties.
    package init(
        name: String, package: String, dependencies: [String] = [], syntax: ProtoSyntax,
        messageNames: [String] = [], enumNames: [String] = [], serviceNames: [String] = []
    ) {
        self.name = name
        self.package = package
        self.dependencies = dependencies
        self.syntax = syntax
        self.messageNames = messageNames
        self.enumNames = enumNames
        self.serviceNames = serviceNames
    }
}
