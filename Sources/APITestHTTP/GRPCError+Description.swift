// MARK: - The sentence for people

extension GRPCError: CustomStringConvertible {
    /// A sentence for people: what failed. Rendered from `kind` here, the one place a `GRPCError` becomes text.
    public var message: String {
        switch kind {
        case .invalidURL(let url):
            return "invalid gRPC call: '\(url)' is not an absolute http or https URL"
        case .invalidMethodPath(let path):
            return "invalid gRPC call: '\(path)' is not a method path of the form /package.Service/Method"
        case .invalidMetadata(let key, let problem):
            return "invalid gRPC metadata '\(key)': " + Self.text(of: problem)
        case .transport(let error):
            return "gRPC transport failure: \(error.message)"
        case .deadlineExceeded(let deadline):
            return "DEADLINE_EXCEEDED: the deadline of \(deadline.milliseconds) ms passed before the call ended"
        case .messageTooLarge(let length, let limit):
            return "a response message of \(length) bytes is larger than the limit of \(limit) bytes"
        case .unsupportedMessageFlag(let flag):
            return flag == 1
                ? "a response message is compressed, but no compression was negotiated"
                : "a response message has the unknown flag byte \(flag)"
        case .truncatedMessage(let received, let expected):
            return "the response ended inside a message: \(received) of its \(expected) bytes arrived"
        case .notGRPC(let httpStatus, let contentType):
            return "not a gRPC response: HTTP status \(httpStatus), content type '\(contentType ?? "")',"
                + " and no grpc-status"
        case .notHTTP2(let version):
            return "the response came over \(version); gRPC needs HTTP/2"
        case .missingStatus:
            return "the response ended without a grpc-status"
        case .stoppedByReader:
            return "the reader of the response messages stopped the call"
        }
    }

    /// The error's `message`.
    public var description: String { message }

    /// The words for a metadata problem.
    private static func text(of problem: MetadataProblem) -> String {
        switch problem {
        case .emptyKey: "the key is empty"
        case .invalidKeyCharacter: "a key has only the characters a-z, 0-9, '-', '_' and '.'"
        case .reservedKey: "the key is set by gRPC or HTTP itself"
        case .nonPrintableText: "a text value has only printable ASCII characters (send bytes under a -bin key)"
        case .binaryWithoutBinSuffix: "bytes go under a key ending in -bin"
        }
    }
}
