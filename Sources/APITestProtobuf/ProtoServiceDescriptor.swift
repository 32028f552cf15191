/// A service and its methods.
package struct ProtoServiceDescriptor: Sendable, Hashable {
    /// The full name without a leading dot (`acme.Users`).
    package var fullName: String
    /// The methods in declaration order.
    package var methods: [ProtoMethodDescriptor]

    /// A service with these methods.
    package init(fullName: String, methods: [ProtoMethodDescriptor]) {
        self.fullName = fullName
        self.methods = methods
    }
}

/// A method of a service: its message types, resolved to full names, and whether each side streams.
package struct ProtoMethodDescriptor: Sendable, Hashable {
    /// The full name of the service (`acme.Users`).
    package var serviceName: String
    /// The method's name (`GetUser`).
    package var name: String
    /// The full name of the request message.
    package var inputType: String
    /// The full name of the response message.
    package var outputType: String
    /// True when the client sends a stream of messages.
    package var clientStreaming: Bool
    /// True when the server sends a stream of messages.
    package var serverStreaming: Bool

    /// A method with these properties.
    package init(
        serviceName: String, name: String, inputType: String, outputType: String, clientStreaming: Bool = false,
        serverStreaming: Bool = false
    ) {
        self.serviceName = serviceName
        self.name = name
        self.inputType = inputType
        self.outputType = outputType
        self.clientStreaming = clientStreaming
        self.serverStreaming = serverStreaming
    }

    /// The HTTP/2 path gRPC calls it at: `/acme.Users/GetUser`.
    package var path: String { "/\(serviceName)/\(name)" }
}
