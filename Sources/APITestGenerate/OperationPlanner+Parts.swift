import APITestJSON
import APITestOpenAPI

// MARK: - Candidates for parameters and bodies

extension OperationPlanner {
    /// The candidates of a required parameter: its examples, then values for its schema (any string when it has
    /// none), keeping those a suite can write there.
    func parameterPart(_ parameter: DescribedParameter) -> Result<Part, GenerationFailure> {
        let name = "\(parameter.location.rawValue) parameter '\(parameter.name)'"
        var candidates = parameter.examples.map { ExampleCandidate(value: $0, isFromDocument: true) }
        var failure: GenerationFailure?
        if let schema = parameter.schema {
            let generated = generator.candidates(for: schema)
            candidates += generated.values
            failure = generated.failure
        } else {
            candidates.append(ExampleCandidate(value: "string", isFromDocument: false))
        }
        let isInHeader = parameter.location == .header || parameter.location == .cookie
        // A URL carries anything percent-encoded; a header is written as text.
        let writable = unique(candidates).filter { candidate in
            guard isInHeader else { return true }
            let text = parameter.contentType == nil ? candidate.value : .string(JSONWriter.string(candidate.value))
            return Self.isWritable(text, inHeader: true)
        }
        guard !writable.isEmpty else {
            let reason =
                candidates.isEmpty
                ? failure?.reason ?? "nothing can be built for it"
                : "its values hold text a suite cannot write there ('{{', or a line break in a header)"
            return .failure(GenerationFailure(reason: "no value can be built for its \(name): \(reason)"))
        }
        return .success(Part(kind: .parameter(parameter), candidates: writable, name: name))
    }

    /// The candidates of the request body, in the first media type a suite can send: JSON (`application/json`, a
    /// `+json` type, a wildcard), then a form of scalars, then plain text. Nil when the body is optional and none of
    /// them is declared or buildable; a failure when it is required.
    func bodyPart(_ body: DescribedRequestBody) -> Result<Part?, GenerationFailure> {
        guard let (mediaType, encoding) = Self.sendableMediaType(body.content) else {
            guard body.isRequired, let first = body.content.first else { return .success(nil) }
            return .failure(GenerationFailure(reason: "the required body is \(first.essence)"))
        }
        let name = "request body (\(mediaType.key))"
        var candidates = mediaType.examples.map { ExampleCandidate(value: $0, isFromDocument: true) }
        var failure: GenerationFailure?
        if let schema = mediaType.schema {
            // A schema that allows anything (`{}`): an empty JSON object is the likeliest body.
            if schema.value == .object(JSONObject()) || schema.value == .bool(true), encoding.isJSON {
                candidates.append(ExampleCandidate(value: .object(JSONObject()), isFromDocument: false))
            }
            let generated = generator.candidates(for: schema)
            candidates += generated.values
            failure = generated.failure
        } else {
            let anything: JSONValue
            switch encoding {
            case .json, .jsonText: anything = .object(JSONObject())
            case .form: anything = .object(JSONObject())
            case .text: anything = "string"
            }
            candidates.append(ExampleCandidate(value: anything, isFromDocument: false))
        }
        let writable = unique(candidates).filter { candidate in
            switch encoding {
            case .json, .jsonText: return Self.isWritable(candidate.value, inHeader: false)
            case .form:
                return Self.formFields(candidate.value) != nil && Self.isWritable(candidate.value, inHeader: false)
            case .text:
                return candidate.value.stringValue.map { Self.isWritable(.string($0), inHeader: false) } ?? false
            }
        }
        guard !writable.isEmpty else {
            guard body.isRequired else { return .success(nil) }
            let reason = failure?.reason ?? "its values are not what a suite can write as \(mediaType.essence)"
            return .failure(GenerationFailure(reason: "no value can be built for its \(name): \(reason)"))
        }
        return .success(Part(kind: .body(mediaType, encoding), candidates: writable, name: name))
    }

    /// The first media type a suite can send, and how: JSON types first (concrete ones before wildcards), then
    /// `application/x-www-form-urlencoded`, then `text/plain`.
    static func sendableMediaType(_ content: [DescribedMediaType]) -> (DescribedMediaType, BodyEncoding)? {
        let concreteJSON = content.first { $0.isJSON && !$0.essence.contains("*") }
        if let json = concreteJSON {
            return (json, json.essence == "application/json" ? .json : .jsonText(json.key))
        }
        if let wildcard = content.first(where: \.isJSON) { return (wildcard, .json) }
        if let form = content.first(where: { $0.essence == "application/x-www-form-urlencoded" }) {
            return (form, .form)
        }
        if let text = content.first(where: { $0.essence == "text/plain" }) { return (text, .text(text.key)) }
        return nil
    }

    /// A form body's fields: an object whose members are scalars; nil for anything else.
    static func formFields(_ value: JSONValue) -> JSONObject? {
        guard case .object(let object) = value else { return nil }
        for member in object.members {
            switch member.value {
            case .array, .object: return nil
            default: continue
            }
        }
        return object
    }

    /// Whether a suite can write `value` literally: no string (or key) holds `{{` (it would be a placeholder), and
    /// in a header no string holds a line break or NUL.
    static func isWritable(_ value: JSONValue, inHeader: Bool) -> Bool {
        switch value {
        case .string(let text):
            if text.contains("{{") { return false }
            return !inHeader || !text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
        case .array(let items):
            return items.allSatisfy { isWritable($0, inHeader: inHeader) }
        case .object(let object):
            return object.members.allSatisfy {
                !$0.key.contains("{{") && isWritable($0.value, inHeader: inHeader)
            }
        default:
            return true
        }
    }

    private func unique(_ candidates: [ExampleCandidate]) -> [ExampleCandidate] {
        var result: [ExampleCandidate] = []
        for candidate in candidates where !result.contains(where: { $0.value == candidate.value }) {
            result.append(candidate)
        }
        return result
    }
}
