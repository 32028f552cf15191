package import APITestHTTP
package import APITestJSON
import APITestJSONSchema
import Foundation

/// A response with the views of its body that checks ask for, each made once, on first use: the decoded body
/// (through the suite's response serializer chain), JSON, XML, image facts and text.
package struct ResponseBody {
    let response: HTTPResponse
    let chain: ResponseSerializerChain
    let removesKeysWithNullValues: Bool
    private var decodedBody: Result<DecodedBody, ResponseSerializationError>?
    private var parsedDocument: Result<JSONBodyDocument, CheckProblem>?
    private var parsedXML: Result<XPathDocument, CheckProblem>?
    private var decodedText: Result<String, CheckProblem>?
    /// The chain's decoder for the response, once looked up: what the checks ask of it, without copying the decoder
    /// (an optional existential) out for every question.
    private var chosen: ChosenDecoder?
    /// The event a check of `expect.events` reads (``Query/stream(_:)``), with the number of events so far.
    var streamEvent: (event: ServerSentEvent, count: Int)?

    package init(
        _ response: HTTPResponse, chain: ResponseSerializerChain = .standard, removesKeysWithNullValues: Bool = false
    ) {
        self.response = response
        self.chain = chain
        self.removesKeysWithNullValues = removesKeysWithNullValues
    }

    // MARK: - The chain

    /// What the checks ask of the chain's decoder for the response.
    private enum ChosenDecoder {
        /// The json decoder, which drops members with null values or not.
        case json(removesKeysWithNullValues: Bool)
        /// The plist decoder, whose body is read as a tree of values.
        case propertyList
        /// Another decoder.
        case other
        /// No decoder accepts the response.
        case none
    }

    /// The chain's decoder for the response, looked up (and cast) once.
    private var chosenDecoder: ChosenDecoder {
        mutating get {
            if let chosen { return chosen }
            let serializers = chain.serializers
            let found: ChosenDecoder
            if let index = serializers.firstIndex(where: { $0.accepts(response) }) {
                // One cast for the common case, a JSON body (testing for a property list first cast twice).
                switch serializers[index] {
                case let decoder as JSONResponseSerializer:
                    found = .json(removesKeysWithNullValues: decoder.removesKeysWithNullValues)
                case is PropertyListResponseSerializer: found = .propertyList
                default: found = .other
                }
            } else {
                found = .none
            }
            chosen = found
            return found
        }
    }

    /// Whether the chain's decoder for the response is the json decoder.
    private var decodesAsJSON: Bool {
        mutating get {
            if case .json = chosenDecoder { return true }
            return false
        }
    }

    /// Whether the chain's decoder for the response makes a tree of values of the body (the plist decoder; a JSON
    /// body is read through a tape), which the run's decode budget counts.
    package var decodesIntoTree: Bool {
        mutating get {
            if case .propertyList = chosenDecoder { return true }
            return false
        }
    }

    /// The body as the first decoder of the chain that accepts the response decodes it.
    mutating func decoded() -> Result<DecodedBody, ResponseSerializationError> {
        if let decodedBody { return decodedBody }
        guard response.bodyIsComplete else {
            // Only a step that reads no body streams it (`ResponseBodyPlan`); never check a prefix as the body.
            let result = Result<DecodedBody, ResponseSerializationError>.failure(
                ResponseSerializationError(
                    decoder: "chain", reason: "the body was only counted and hashed as it streamed, not kept"))
            decodedBody = result
            return result
        }
        let result = chain.decode(response)
        decodedBody = result
        return result
    }

    /// The chain's decoding for the views other than JSON: a body the chain decodes as JSON is not decoded into
    /// a tree just to find it is not text, XML or an image.
    private mutating func decodedUnlessJSON() -> DecodedBody? {
        if decodesAsJSON { return nil }
        return try? decoded().get()
    }

    /// Why the body cannot be read when it was only counted and hashed as it streamed.
    private var notKept: CheckProblem? {
        response.bodyIsComplete
            ? nil
            : CheckProblem("the body was only counted and hashed as it streamed, not kept (\(response.bodySize) bytes)")
    }

    // MARK: - JSON

    /// The body as a JSON document for queries and schema checks: a compact `JSONTape` over the body's bytes
    /// (members with null values left out when the json decoder drops them), so a large body is never turned into
    /// a tree of values; the plist decoder's tree for a property list. Errors as in ``json()``. Made once.
    mutating func document() -> Result<JSONBodyDocument, CheckProblem> {
        if let problem = makeDocument() { return .failure(problem) }
        return parsedDocument!
    }

    /// The value of the one node a singular `path` selects in ``document()`` (nil: none), read where the document
    /// is kept: the checks' usual JSONPath (`$.name`), without a list of nodes.
    mutating func singularValue(_ path: JSONPath) -> Result<JSONValue?, CheckProblem> {
        if let problem = makeDocument() { return .failure(problem) }
        switch parsedDocument {
        case .success(let document)?: return .success(document.singularValue(path))
        case .failure(let problem)?: return .failure(problem)
        case nil: preconditionFailure("makeDocument() keeps the document it made")
        }
    }

    /// Makes ``parsedDocument`` unless it is made; the problem, and nothing made, when the body was not kept.
    private mutating func makeDocument() -> CheckProblem? {
        if case .some = parsedDocument { return nil }
        if let problem = notKept { return problem }
        let result: Result<JSONBodyDocument, CheckProblem>
        // Whether the tape leaves out members with null values; `nil` for a property list, read as a tree.
        let dropsNulls: Bool?
        switch chosenDecoder {
        case .json(let removesKeysWithNullValues): dropsNulls = removesKeysWithNullValues
        case .propertyList: dropsNulls = nil
        case .other, .none: dropsNulls = removesKeysWithNullValues
        }
        if let dropsNulls {
            do {
                result = .success(
                    .tape(try JSONTape(parsing: BodyText(response.body), droppingNullMembers: dropsNulls)))
            } catch {
                // The same words as the tree's errors: let the decoder (or the fallback parse) say why.
                result = json().map(JSONBodyDocument.value)
            }
        } else {
            result = json().map(JSONBodyDocument.value)
        }
        parsedDocument = result
        return nil
    }

    /// The JSON tape the checks already made of the body, when it holds the body exactly as received (no member
    /// dropped): the OpenAPI contract then reads it instead of parsing the body again. `nil` otherwise.
    package mutating func tapeAsReceived() -> JSONTape? {
        guard case .success(.tape(let tape))? = parsedDocument else { return nil }
        let dropsNulls: Bool
        if case .json(let removesKeysWithNullValues) = chosenDecoder {
            dropsNulls = removesKeysWithNullValues
        } else {
            dropsNulls = self.removesKeysWithNullValues
        }
        return dropsNulls ? nil : tape
    }

    /// The body as a tree, for a property list and for the words of a body that is not JSON: what the json or
    /// plist decoder made of it, else (a JSON body sent with another content type) the body parsed as JSON. A body
    /// the json decoder rejects is an error naming where and why. Only ``document()`` asks, once.
    private mutating func json() -> Result<JSONValue, CheckProblem> {
        let result: Result<JSONValue, CheckProblem>
        switch decoded() {
        case .success(let body) where body.jsonValue != nil:
            result = .success(body.jsonValue!)
        case .failure(let error) where error.decoder == "json" || error.decoder == "plist":
            result = .failure(CheckProblem("the response body is not valid (\(error))"))
        case .success(let body):
            result = parseJSON(otherwise: "decoded as \(body.decoderName) (\(contentTypeText))")
        case .failure(let error):
            result = parseJSON(otherwise: "\(error)")
        }
        return result
    }

    /// The body parsed as JSON although the chain decoded it otherwise (a JSON body under another content type);
    /// nulls are dropped here as the chain's JSON decoder would have.
    private func parseJSON(otherwise context: String) -> Result<JSONValue, CheckProblem> {
        do {
            let value = try JSONParser.parse(response.body)
            return .success(
                removesKeysWithNullValues ? JSONResponseSerializer.removingKeysWithNullValues(value) : value)
        } catch {
            return .failure(
                CheckProblem(
                    "the response body is not JSON (json decoder: \(JSONParseError.describing(error)); the body was \(context))"
                ))
        }
    }

    private var contentTypeText: String {
        response.headers["Content-Type"].map { "Content-Type \($0)" } ?? "no Content-Type"
    }

    // MARK: - XML

    /// The body as an XML document, for XPath.
    mutating func xml() -> Result<XPathDocument, CheckProblem> {
        if let parsedXML { return parsedXML }
        if let problem = notKept { return .failure(problem) }
        let result: Result<XPathDocument, CheckProblem>
        switch decodesAsJSON ? nil : decoded() {
        case .success(.xml(let document))?: result = .success(document)
        case .failure(let error)? where error.decoder == "xml":
            result = .failure(CheckProblem("the response body is not valid XML (\(error))"))
        default:
            do {
                result = .success(try XPathDocument.parse(response.body))
            } catch {
                result = .failure(CheckProblem("the response body is not XML (\(error))"))
            }
        }
        parsedXML = result
        return result
    }

    // MARK: - Images

    /// The facts of an image body.
    mutating func image() -> Result<ImageInfo, CheckProblem> {
        if let problem = notKept { return .failure(problem) }
        if case .image(let info)? = decodedUnlessJSON() { return .success(info) }
        do {
            guard case .image(let info) = try ImageResponseSerializer(acceptableContentTypes: nil).decode(response)
            else { return .failure(CheckProblem("the response body is not an image")) }
            return .success(info)
        } catch {
            return .failure(CheckProblem("the response body is not an image (\(error))"))
        }
    }

    // MARK: - Text

    /// The body as text, decoded with the charset of `Content-Type` (UTF-8 when none is given).
    mutating func text() -> Result<String, CheckProblem> {
        if let decodedText { return decodedText }
        if let problem = notKept { return .failure(problem) }
        let result: Result<String, CheckProblem>
        if case .text(let text)? = decodedUnlessJSON() {
            result = .success(text)
        } else {
            do {
                guard case .text(let text) = try TextResponseSerializer(acceptableContentTypes: nil).decode(response)
                else { return .failure(CheckProblem("the response body is not text")) }
                result = .success(text)
            } catch {
                result = .failure(CheckProblem("the response body is not text (\(error))"))
            }
        }
        decodedText = result
        return result
    }
}

/// Why a check could not read its value: the body is not JSON, a filter got the wrong type, and so on.
struct CheckProblem: Error, Sendable {
    var text: String

    init(_ text: String) {
        self.text = text
    }
}

/// A JSON body as checks query it: a compact tape, or a value tree (from the plist decoder, or with nulls dropped).
enum JSONBodyDocument {
    case tape(JSONTape)
    case value(JSONValue)

    /// The values `path` selects.
    func query(_ path: JSONPath) -> [JSONValue] {
        switch self {
        case .tape(let tape): tape.query(path)
        case .value(let value): path.query(value)
        }
    }

    /// The value of the one node a singular `path` selects, or nil: ``query(_:)``'s first value, without making
    /// the list for a tape. Only for a path whose `isSingular` holds.
    func singularValue(_ path: JSONPath) -> JSONValue? {
        switch self {
        case .tape(let tape): tape.singularValue(path)
        case .value(let value): path.query(value).first
        }
    }

    /// The document checked against `schema`, in place for a tape, recording at most `maximumErrors` failures.
    func validate(against schema: JSONSchema, maximumErrors: Int) -> JSONSchemaValidationResult {
        switch self {
        case .tape(let tape): schema.validate(tape, maximumErrors: maximumErrors)
        case .value(let value): schema.validate(value, maximumErrors: maximumErrors)
        }
    }
}

/// A response body as the text a `JSONTape` reads, without copying it.
struct BodyText: JSONText {
    let data: Data

    init(_ data: Data) {
        self.data = data
    }

    func withJSONBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { raw in try body(raw.bindMemory(to: UInt8.self)) }
    }
}
