import APITestJSON
package import APITestOpenAPI

/// Makes the cases of the examples, coverage and fuzzing phases for each operation of a description, the same for
/// the same seed: each operation and phase draws from its own stream of ``FuzzRandom``, and cases come out in a
/// fixed order.
package struct CaseGenerator: Sendable {
    /// The document.
    package let description: OpenAPIDescription
    /// The seed of the run.
    package let seed: UInt64
    /// Cases of the fuzzing phase per operation.
    package let maxExamples: Int
    /// Makes values.
    let values: ValueGenerator

    /// The most cases one operation gets in the coverage phase.
    package static let coverageLimit = 400
    /// The methods an `unsupported_method` case may send.
    package static let probedMethods = ["GET", "PUT", "POST", "DELETE", "PATCH", "OPTIONS"]

    /// A generator for `description`'s operations.
    package init(description: OpenAPIDescription, seed: UInt64, maxExamples: Int) {
        self.description = description
        self.seed = seed
        self.maxExamples = maxExamples
        self.values = ValueGenerator(description: description)
    }

    /// The cases of `phase` for the operation at `index` (none for the stateful phase: see ``StatefulPlanner``).
    package func cases(for index: Int, phase: FuzzPhase) -> [FuzzCase] {
        switch phase {
        case .examples: exampleCases(index)
        case .coverage: coverageCases(index)
        case .fuzzing: fuzzingCases(index)
        case .stateful: []
        }
    }

    // MARK: - Shared parts

    /// The media type a body is sent as: the first JSON one, else a form, else none (nil).
    func bodyMediaType(_ operation: DescribedOperation) -> (DescribedMediaType, FuzzCase.Body.Encoding)? {
        guard let body = operation.requestBody else { return nil }
        if let json = body.content.first(where: \.isJSON) {
            let key = json.essence.contains("*") ? "application/json" : json.key
            var chosen = json
            chosen.key = key
            return (chosen, .json)
        }
        if let form = body.content.first(where: { $0.essence == "application/x-www-form-urlencoded" }) {
            return (form, .form)
        }
        if let multipart = body.content.first(where: { $0.essence == "multipart/form-data" }) {
            return (multipart, .multipart)
        }
        if let xml = body.content.first(where: {
            $0.essence == "application/xml" || $0.essence == "text/xml" || $0.essence.hasSuffix("+xml")
        }) {
            return (xml, .xml(root: xmlRoot(xml.schema)))
        }
        return nil
    }

    /// The root element of an XML body: the schema's `xml.name`, else the name of the component it refers to, else
    /// `root`.
    func xmlRoot(_ schema: DescribedSchema?) -> String {
        guard let schema else { return "root" }
        if let name = description.resolve(schema)?.value.objectValue?["xml"]?.objectValue?["name"]?.stringValue {
            return name
        }
        if let reference = schema.value.objectValue?["$ref"]?.stringValue,
            let last = reference.split(separator: "/").last
        {
            return String(last)
        }
        return "root"
    }

    /// A body of `mediaType` holding `value`; a multipart body's files are the members whose schema says binary
    /// (`format: binary`, a `contentMediaType`).
    func body(_ mediaType: DescribedMediaType, _ encoding: FuzzCase.Body.Encoding, _ value: JSONValue) -> FuzzCase.Body
    {
        var body = FuzzCase.Body(mediaType: mediaType.key, encoding: encoding, value: value)
        if encoding == .multipart, let schema = mediaType.schema {
            for (name, property) in values.view(schema).properties {
                let raw = description.resolve(property)?.value.objectValue
                if values.view(property).format == "binary" || raw?["contentMediaType"] != nil {
                    body.fileParts.insert(name)
                }
            }
        }
        return body
    }

    /// The parameters of `operation`, each with its simplest valid value (required ones; optional ones left out).
    func baseParameters(_ operation: DescribedOperation) -> [FuzzCase.Parameter] {
        operation.parameters.map { parameter in
            var value: JSONValue?
            if parameter.isRequired {
                value = parameter.examples.first ?? parameter.schema.map { values.minimal($0) } ?? .string("fuzz")
            }
            return FuzzCase.Parameter(
                name: parameter.name, location: parameter.location, style: parameter.style,
                explode: parameter.explode, contentType: parameter.contentType, isRequired: parameter.isRequired,
                value: value)
        }
    }

    /// The simplest valid body of `operation`, nil when it sends none.
    func baseBody(_ operation: DescribedOperation) -> FuzzCase.Body? {
        guard let (mediaType, encoding) = bodyMediaType(operation) else { return nil }
        let value =
            mediaType.examples.first ?? mediaType.schema.map { values.minimal($0) } ?? .object(JSONObject())
        return body(mediaType, encoding, value)
    }

    /// A data case of `operation` at `index`.
    func dataCase(
        _ index: Int, _ phase: FuzzPhase, parameters: [FuzzCase.Parameter], body: FuzzCase.Body?,
        intent: FuzzCase.Intent, label: String
    ) -> FuzzCase {
        let operation = description.operations[index]
        return FuzzCase(
            operation: index, phase: phase, method: operation.method, parameters: parameters, body: body,
            intent: intent, label: label)
    }

    /// The intent of a boundary value at `place`.
    static func intent(_ boundary: BoundaryValue, place: String) -> FuzzCase.Intent {
        switch boundary.isValid {
        case true: .valid
        case false:
            .invalid(keyword: boundary.keyword, place: place + (boundary.pointer.isEmpty ? "" : " " + boundary.pointer))
        default: .unknown
        }
    }

    // MARK: - Examples

    private func exampleCases(_ index: Int) -> [FuzzCase] {
        let operation = description.operations[index]
        var bodies: [JSONValue] = []
        let chosen = bodyMediaType(operation)
        if let (mediaType, _) = chosen {
            bodies = mediaType.examples
            if let schema = mediaType.schema {
                bodies += values.view(schema).examples.filter { !bodies.contains($0) }
                if let composed = composedExample(schema), !bodies.contains(composed) { bodies.append(composed) }
            }
        }
        var parameterExamples: [[JSONValue]] = operation.parameters.map { parameter in
            var list = parameter.examples
            if let schema = parameter.schema { list += values.view(schema).examples.filter { !list.contains($0) } }
            return list
        }
        let count = max(bodies.count, parameterExamples.map(\.count).max() ?? 0)
        guard count > 0 else { return [] }
        var cases: [FuzzCase] = []
        for number in 0..<count {
            var parameters = baseParameters(operation)
            for position in parameters.indices where !parameterExamples[position].isEmpty {
                let list = parameterExamples[position]
                parameters[position].value = list[min(number, list.count - 1)]
            }
            var body = baseBody(operation)
            if !bodies.isEmpty { body?.value = bodies[min(number, bodies.count - 1)] }
            cases.append(
                dataCase(
                    index, .examples, parameters: parameters, body: body, intent: .valid, label: "example \(number + 1)"
                ))
        }
        parameterExamples.removeAll()
        return cases
    }

    /// An object made of its properties' examples, when the schema is an object and some of them have one.
    private func composedExample(_ schema: DescribedSchema) -> JSONValue? {
        let view = values.view(schema)
        guard case .object(var object) = values.minimal(schema), !view.properties.isEmpty else { return nil }
        var found = false
        for (name, property) in view.properties {
            let inner = values.view(property)
            if forRequestsSkips(inner) { continue }
            if let example = inner.examples.first {
                object[name] = example
                found = true
            }
        }
        return found ? .object(object) : nil
    }

    private func forRequestsSkips(_ view: SchemaView) -> Bool { view.readOnly }

    // MARK: - Coverage

    private func coverageCases(_ index: Int) -> [FuzzCase] {
        let operation = description.operations[index]
        let base = baseParameters(operation)
        let body = baseBody(operation)
        var cases = [
            dataCase(index, .coverage, parameters: base, body: body, intent: .valid, label: "required values only")
        ]
        // Every optional parameter present.
        if base.contains(where: { !$0.isRequired }) {
            var all = base
            for position in all.indices where all[position].value == nil {
                let parameter = operation.parameters[position]
                all[position].value =
                    parameter.examples.first ?? parameter.schema.map { values.minimal($0) } ?? .string("fuzz")
            }
            cases.append(
                dataCase(index, .coverage, parameters: all, body: body, intent: .valid, label: "every parameter"))
        }
        for (position, parameter) in operation.parameters.enumerated() {
            let place = "\(parameter.location.rawValue) \(parameter.name)"
            if parameter.isRequired {
                var without = base
                without[position].value = nil
                cases.append(
                    dataCase(
                        index, .coverage, parameters: without, body: body,
                        intent: .invalid(keyword: "required", place: place), label: "\(place) left out"))
            }
            guard let schema = parameter.schema else { continue }
            for boundary in values.boundaries(schema) {
                // A parameter's text cannot say null, nor nest a container in a container.
                if boundary.value == .null || Self.nests(boundary.value) { continue }
                // An empty path segment routes to another path.
                if parameter.location == .path, ParameterText.primitive(boundary.value).isEmpty { continue }
                var changed = base
                changed[position].value = boundary.value
                cases.append(
                    dataCase(
                        index, .coverage, parameters: changed, body: body,
                        intent: Self.intent(boundary, place: place),
                        label: "\(place) \(boundary.keyword) \(boundary.isValid == true ? "kept" : "broken")"))
            }
        }
        if let body, let (mediaType, encoding) = bodyMediaType(operation) {
            if operation.requestBody?.isRequired == true {
                cases.append(
                    dataCase(
                        index, .coverage, parameters: base, body: nil,
                        intent: .invalid(keyword: "required", place: "body"), label: "body left out"))
            }
            if encoding == .json {
                var malformed = body
                malformed.encoding = .raw("{\"malformed\": ")
                cases.append(
                    dataCase(
                        index, .coverage, parameters: base, body: malformed,
                        intent: .invalid(keyword: "json", place: "body"), label: "body malformed JSON"))
            }
            if let schema = mediaType.schema {
                for boundary in values.boundaries(schema) {
                    if encoding.keepsOnlyText, Self.nests(boundary.value) || boundary.keyword == "type" { continue }
                    var changed = body
                    changed.value = boundary.value
                    cases.append(
                        dataCase(
                            index, .coverage, parameters: base, body: changed,
                            intent: Self.intent(boundary, place: "body"),
                            label: "body\(boundary.pointer.isEmpty ? "" : " " + boundary.pointer) \(boundary.keyword) "
                                + (boundary.isValid == true ? "kept" : "broken")))
                }
            }
        }
        if cases.count > Self.coverageLimit { cases.removeLast(cases.count - Self.coverageLimit) }
        cases += probeCases(index, base: base, body: body)
        return cases
    }

    /// Whether a parameter value nests a container in a container (no style writes that).
    static func nests(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items): items.contains { $0.arrayValue != nil || $0.objectValue != nil }
        case .object(let object): object.contains { $0.value.arrayValue != nil || $0.value.objectValue != nil }
        default: false
        }
    }

    /// The `unsupported_method` cases of the operation's path (made once, by its first operation) and the
    /// `ignored_auth` cases of the operation.
    private func probeCases(_ index: Int, base: [FuzzCase.Parameter], body: FuzzCase.Body?) -> [FuzzCase] {
        let operation = description.operations[index]
        var cases: [FuzzCase] = []
        let siblings = description.operations.filter { $0.pathTemplate == operation.pathTemplate }
        if siblings.first?.operation.index == operation.operation.index {
            let declared = Set(siblings.map(\.method))
            for method in Self.probedMethods where !declared.contains(method) {
                if method == "OPTIONS" { continue }
                var probe = dataCase(
                    index, .coverage, parameters: base, body: nil, intent: .unknown, label: "method \(method)")
                probe.method = method
                probe.purpose = .unsupportedMethod
                cases.append(probe)
            }
        }
        if SecurityFacts.requiresCredentials(operation) {
            for bogus in [false, true] {
                var probe = dataCase(
                    index, .coverage, parameters: base, body: body, intent: .valid,
                    label: bogus ? "made-up credentials" : "no credentials")
                probe.purpose = .withoutCredentials(bogus: bogus)
                cases.append(probe)
            }
        }
        return cases
    }

    // MARK: - Fuzzing

    private func fuzzingCases(_ index: Int) -> [FuzzCase] {
        var random = FuzzRandom.stream(seed: seed, UInt64(index), 3)
        return (0..<maxExamples).map { randomCase(index, number: $0, &random, breaking: true) }
    }

    /// A random case of the operation at `index`: valid values, and when `breaking`, one part of a third of them
    /// broken at one keyword; `fill` says which optional members its objects get.
    package func randomCase(
        _ index: Int, number: Int, _ random: inout FuzzRandom, breaking: Bool,
        fill: ValueGenerator.Fill = .random
    ) -> FuzzCase {
        var values = self.values
        values.fill = fill
        let operation = description.operations[index]
        let chosen = bodyMediaType(operation)
        var parameters = baseParameters(operation)
        for position in parameters.indices {
            let parameter = operation.parameters[position]
            guard parameter.isRequired || random.chance(1, in: 2) else {
                parameters[position].value = nil
                continue
            }
            if let schema = parameter.schema {
                var value = values.valid(schema, &random)
                var attempts = 0
                while value == .null || Self.nests(value), attempts < 4 {
                    value = values.valid(schema, &random)
                    attempts += 1
                }
                parameters[position].value = value == .null || Self.nests(value) ? values.minimal(schema) : value
            } else {
                parameters[position].value = .string("fuzz\(random.below(1000))")
            }
        }
        var body: FuzzCase.Body?
        if let (mediaType, encoding) = chosen {
            let value = mediaType.schema.map { values.valid($0, &random) } ?? .object(JSONObject())
            body = self.body(mediaType, encoding, value)
        }
        var intent = FuzzCase.Intent.valid
        var label = "random \(number + 1)"
        // A third of the cases break one keyword of one part.
        if breaking, random.chance(1, in: 3) {
            var targets: [Int] = operation.parameters.indices.filter { operation.parameters[$0].schema != nil }
            if body != nil, chosen?.0.schema != nil { targets.append(-1) }
            if !targets.isEmpty {
                let target = random.pick(targets)
                if target == -1, let schema = chosen?.0.schema, let broken = values.invalid(schema, &random),
                    !(chosen?.1.keepsOnlyText == true && (Self.nests(broken.value) || broken.keyword == "type"))
                {
                    body?.value = broken.value
                    intent = Self.intent(broken, place: "body")
                    label += " (body\(broken.pointer.isEmpty ? "" : " " + broken.pointer) \(broken.keyword) broken)"
                } else if target >= 0, let schema = operation.parameters[target].schema,
                    let broken = values.invalid(schema, &random), broken.value != .null, !Self.nests(broken.value)
                {
                    let parameter = operation.parameters[target]
                    parameters[target].value = broken.value
                    let place = "\(parameter.location.rawValue) \(parameter.name)"
                    intent = Self.intent(broken, place: place)
                    label += " (\(place) \(broken.keyword) broken)"
                }
            }
        }
        return dataCase(index, .fuzzing, parameters: parameters, body: body, intent: intent, label: label)
    }
}
