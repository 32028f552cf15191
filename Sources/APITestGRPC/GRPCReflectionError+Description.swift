import APITestHTTP
import APITestProtobuf

// MARK: - The sentence for people

extension GRPCReflectionError: CustomStringConvertible {
    /// A sentence for people: what failed. Rendered from `kind` here, the one place a `GRPCReflectionError` becomes
    /// text.
    package var message: String {
        switch kind {
        case .notServed(let server):
            return "the gRPC server at \(server) serves no reflection: both grpc.reflection.v1 and"
                + " grpc.reflection.v1alpha answered UNIMPLEMENTED (give the .proto files instead)"
        case .callFailed(let version, let status):
            let detail = status.message.isEmpty ? "" : ": \(status.message)"
            return "the reflection call (\(version.serviceName)) ended with \(status.codeName)\(detail)"
        case .errorResponse(let request, let code, let message):
            let name = GRPCStatus(rawCode: code).codeName
            let detail = message.isEmpty ? "" : ": \(message)"
            return "the reflection server answered \(request) with \(name)\(detail)"
        case .symbolNotFound(let name, let suggestion):
            return "the server does not know the service '\(name)'"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .malformedAnswer(let reason):
            return "malformed reflection answer: \(reason)"
        case .tooLarge(let what, let limit):
            return "the reflection answers hold more than the limit of \(limit) \(what)"
        case .schema(let error):
            return "the descriptors the server sent do not make a schema: \(error.message)"
        }
    }

    /// The error's `message`.
    package var description: String { message }
}
