// MARK: - The sentence for people

extension ContractViolation: CustomStringConvertible {
    /// A sentence for people, e.g. `418 is not declared for getPet (200, 404, default)` or
    /// `/0/id: must be integer, got string (type at #/components/schemas/Pet/properties/id/type)`. The one place a
    /// violation becomes text.
    package var message: String {
        switch kind {
        case .undeclaredStatus(let status, let declared):
            return "\(status) is not declared for \(operation.displayName) (\(list(declared)))"
        case .missingContentType(let declared):
            return "the \(subjectWord) has a body but no Content-Type; \(entryName) declares \(list(declared))"
        case .undeclaredContentType(let contentType, let declared):
            return "Content-Type \(contentType) is not declared for \(entryName) (\(list(declared)))"
        case .missingBody(let declared):
            switch subject {
            case .response:
                return "\(entryName) declares a body (\(list(declared))) and the response has none"
            case .request:
                return "\(operation.displayName) requires a request body (\(list(declared))) and none was sent"
            }
        case .invalidJSON(let contentType):
            return "the \(subjectWord) body is not JSON although its Content-Type is \(contentType) (\(entryName))"
        case .schemaMismatch(let message):
            let place = instancePath.map { $0.isEmpty ? "(root)" : $0 } ?? "(root)"
            let keywordPart = keyword.map { keyword in schemaPath.map { "\(keyword) at \($0)" } ?? keyword }
            return "\(place): \(message)" + (keywordPart.map { " (\($0))" } ?? "")
        case .missingHeader(let name):
            return "response header \(name) is required by \(entryName) and missing"
        case .missingParameter(let name, let location):
            return "\(location.rawValue) parameter \(name) is required by \(operation.displayName) and missing"
        }
    }

    /// The violation's `message`.
    package var description: String { message }

    /// `response` or `request`.
    private var subjectWord: String {
        switch subject {
        case .response: "response"
        case .request: "request"
        }
    }

    /// The declaration concerned: `listPets 200` for a response, `createPet's request body` for a request.
    private var entryName: String {
        switch subject {
        case .response: responseKey.map { "\(operation.displayName) \($0)" } ?? operation.displayName
        case .request: "\(operation.displayName)'s request body"
        }
    }

    private func list(_ items: [String]) -> String {
        items.isEmpty ? "none" : items.joined(separator: ", ")
    }
}
