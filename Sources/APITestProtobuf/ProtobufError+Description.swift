import APITestSupport

// MARK: - Rendering

extension ProtobufError: CustomStringConvertible {
    /// `$.user.roles[2]: unknown enum value 'ADMN' of acme.Role; did you mean 'ADMIN'?`: the path (or the
    /// `.proto` location), then the sentence of the kind.
    package var description: String {
        let prefix: String
        if let location {
            prefix = "\(location): "
        } else if !path.isEmpty {
            prefix = "\(path): "
        } else {
            prefix = ""
        }
        return prefix + message
    }

    /// The sentence of the kind, without the path.
    package var message: String {
        switch kind {
        case .truncated: return "the message bytes end inside a field"
        case .varintOverflow: return "a varint is longer than 64 bits"
        case .invalidTag(let tag): return "invalid field tag \(tag) (wire type \(tag & 7), field \(tag >> 3))"
        case .groupsUnsupported(let what): return "\(what) is a group, which is not supported (proto2 groups)"
        case .tooDeep(let limit): return "messages are nested deeper than \(limit) levels"
        case .tooLarge(let limit): return "the input is larger than the limit of \(limit) bytes"
        case .invalidUTF8(let field): return "string field '\(field)' is not valid UTF-8"
        case .malformedDescriptor(let what): return "malformed descriptor: \(what)"
        case .unresolvedType(let name, let from, let suggestion):
            return "type '\(name.shownInMessage)' (used by \(from)) is not declared by the loaded files"
                + didYouMean(suggestion)
        case .unknownMessage(let name, let suggestion):
            return "unknown message type '\(name.shownInMessage)'" + didYouMean(suggestion)
        case .unknownService(let name, let suggestion):
            return "unknown service '\(name.shownInMessage)'" + didYouMean(suggestion)
        case .unknownMethod(let service, let method, let suggestion):
            return "unknown method '\(method.shownInMessage)' of service \(service)" + didYouMean(suggestion)
        case .invalidMethodReference(let text):
            return "'\(text.shownInMessage)' is not a method reference of the form package.Service/Method"
        case .duplicateName(let name): return "'\(name)' is declared twice"
        case .protocUnavailable(let reason): return "cannot run protoc: \(reason)"
        case .protocFailed(let text): return "protoc: \(text.shownInMessage)"
        case .typeMismatch(let expected, let got): return "expected \(expected), got \(got)"
        case .outOfRange(let value, let type):
            return "\(value.shownInMessage) is not a valid \(type) (out of range or not a whole number)"
        case .invalidNumber(let value, let type): return "'\(value.shownInMessage)' is not a valid \(type)"
        case .unknownField(let name, let message, let suggestion):
            return "unknown field '\(name.shownInMessage)' of \(message)" + didYouMean(suggestion)
        case .duplicateField(let name): return "field '\(name)' is given twice"
        case .oneofConflict(let oneof, let first, let second):
            return "fields '\(first)' and '\(second)' are both set, but they are members of oneof '\(oneof)'"
        case .unknownEnumValue(let value, let enumName, let suggestion):
            return "unknown enum value '\(value.shownInMessage)' of \(enumName)" + didYouMean(suggestion)
        case .invalidBase64: return "not base64 (standard or URL-safe alphabet)"
        case .invalidWellKnownValue(let type, let reason): return "invalid \(type): \(reason)"
        case .unresolvedAnyType(let url, let suggestion):
            if url.isEmpty { return "an Any value needs a '@type' member naming its message type" }
            return "Any type '\(url.shownInMessage)' names no loaded message type" + didYouMean(suggestion)
        }
    }

    private func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}
