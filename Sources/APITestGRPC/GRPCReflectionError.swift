package import APITestHTTP
package import APITestProtobuf

/// Why the schema of a server could not be had through gRPC server reflection. The kind is typed; the sentence is
/// rendered from it (`GRPCReflectionError+Description.swift`).
package struct GRPCReflectionError: Error, Sendable, Hashable {
    /// Which failure it was, with the data that tells it apart.
    package enum Kind: Sendable, Hashable {
        /// The server answered UNIMPLEMENTED for both `grpc.reflection.v1` and `grpc.reflection.v1alpha`: it serves
        /// no reflection.
        case notServed(server: String)
        /// The reflection call ended with a status other than OK (a transport failure included: its status says
        /// which, its message what happened).
        case callFailed(version: GRPCReflectionVersion, status: GRPCStatus)
        /// The server answered a request with an `error_response`.
        case errorResponse(request: String, code: Int, message: String)
        /// A symbol (a service) the server does not know; `suggestion` is the nearest listed service.
        case symbolNotFound(name: String, suggestion: String?)
        /// The answers are not what the protocol says: bytes that do not decode, a count that does not match the
        /// requests, a file missing from the answer that was asked for it.
        case malformedAnswer(String)
        /// More files or bytes than the limits allow (`what` names the limit: `files` or `bytes`).
        case tooLarge(what: String, limit: Int)
        /// The files received do not make a schema (a type no file declares, a name declared twice).
        case schema(ProtobufError)
    }

    /// Which failure it was.
    package var kind: Kind

    /// An error of `kind`.
    package init(_ kind: Kind) {
        self.kind = kind
    }
}

/// The two versions of gRPC's reflection service: `grpc.reflection.v1.ServerReflection` and its predecessor
/// `grpc.reflection.v1alpha.ServerReflection`, whose messages are the same on the wire.
package enum GRPCReflectionVersion: String, Sendable, Hashable, CaseIterable {
    /// `grpc.reflection.v1`, tried first.
    case v1
    /// `grpc.reflection.v1alpha`, tried when the server answers `v1` with UNIMPLEMENTED.
    case v1alpha

    /// The method path of `ServerReflectionInfo` in this version.
    package var path: String { "/grpc.reflection.\(rawValue).ServerReflection/ServerReflectionInfo" }

    /// The service's full name.
    package var serviceName: String { "grpc.reflection.\(rawValue).ServerReflection" }
}
