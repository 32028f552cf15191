package import APITestJSON
package import APITestOpenAPI

/// One generated request: to which operation, made by which phase, with which values, and what the API should
/// make of it.
package struct FuzzCase: Sendable {
    /// What the case is for.
    package enum Purpose: Sendable, Hashable {
        /// Data for the operation (valid, invalid or not judged).
        case data
        /// A method the path does not declare (`unsupported_method`).
        case unsupportedMethod
        /// The operation's request without the credentials its security requires (`ignored_auth`); `bogus` when a
        /// made-up credential is sent instead of none.
        case withoutCredentials(bogus: Bool)
        /// A step of a stateful sequence.
        case stateful(StatefulStep)
    }

    /// What a stateful step checks.
    package enum StatefulStep: Sendable, Hashable {
        /// The request that creates the resource.
        case create
        /// Reading the resource just created (`ensure_resource_availability`).
        case readAfterCreate
        /// Changing it.
        case update
        /// Deleting it.
        case delete
        /// Reading it once deleted (`use_after_free`).
        case readAfterDelete
    }

    /// Whether the document's schemas accept the request.
    package enum Intent: Sendable, Hashable {
        /// Every value keeps its schema.
        case valid
        /// A value breaks `keyword` at `place` (`query limit`, `body /name`).
        case invalid(keyword: String, place: String)
        /// Not judged (a `format`, a `pattern` the generator does not follow, a value that routes elsewhere).
        case unknown
    }

    /// A parameter's value; nil leaves the parameter out.
    package struct Parameter: Sendable {
        /// The parameter as declared.
        package var name: String
        package var location: ContractViolation.ParameterLocation
        package var style: String
        package var explode: Bool
        /// The media type of a parameter declared by `content`.
        package var contentType: String?
        /// Whether the document requires it.
        package var isRequired: Bool
        /// The value, nil when left out.
        package var value: JSONValue?
    }

    /// A request body.
    package struct Body: Sendable {
        /// How the body is written.
        package enum Encoding: Sendable, Hashable {
            case json
            case form
            /// `multipart/form-data`: a part per member (``BodyText/multipart(_:fileParts:)``).
            case multipart
            /// XML: a string value as it is (a documented example), else elements made from the value
            /// (``BodyText/xml(_:root:)``).
            case xml(root: String)
            /// The text as it is (a malformed JSON body).
            case raw(String)

            /// Whether the body keeps only text (a form or multipart): a value nested in a container, or a type
            /// other than a string, cannot be sent in it.
            package var keepsOnlyText: Bool { self == .form || self == .multipart }
        }

        /// The media type sent as `Content-Type`.
        package var mediaType: String
        package var encoding: Encoding
        /// The value (for `json`, `form`, `multipart` and `xml`).
        package var value: JSONValue
        /// The members sent as files in a multipart body (`format: binary`, a `contentMediaType`).
        package var fileParts: Set<String> = []
    }

    /// The index of the operation in the description's `operations`.
    package var operation: Int
    /// The phase that made it.
    package var phase: FuzzPhase
    /// The method sent (another one for ``Purpose/unsupportedMethod``).
    package var method: String
    /// The path template with values filled in later (a stateful step's concrete path when set).
    package var pathOverride: String?
    /// The operation's parameters, in declaration order.
    package var parameters: [Parameter]
    /// The body, when one is sent.
    package var body: Body?
    /// What the generator meant.
    package var intent: Intent
    /// What the case is for.
    package var purpose: Purpose = .data
    /// How the case was made, one line (`coverage: query limit maximum`).
    package var label: String

    /// A case.
    package init(
        operation: Int, phase: FuzzPhase, method: String, parameters: [Parameter], body: Body?, intent: Intent,
        label: String
    ) {
        self.operation = operation
        self.phase = phase
        self.method = method
        self.parameters = parameters
        self.body = body
        self.intent = intent
        self.label = label
    }
}
