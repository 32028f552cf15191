import APITestJSON
import APITestOpenAPI

// MARK: - The stateful phase

extension FuzzEngine {
    /// Sequences per chain of ``StatefulPlanner`` (fewer when `--max-examples` is smaller).
    static let sequencesPerChain = 3
    /// Creations tried per sequence: another body is made when the server refuses one (a duplicate's 409).
    static let creationAttempts = 3
    /// Bodies generated per creation until the contract finds one valid.
    static let validityAttempts = 8

    /// Runs every chain: creates a resource, reads it, changes it, deletes it and reads it again; the outcomes in
    /// order. A sequence stops when its creations are refused.
    ///
    /// The sequences of a chain create differently, so that a resource the server stores only when it is complete
    /// is made as well as one as small as the document allows: the first from the document's example (else with the
    /// required members only), the second with every member (an optional `anyOf` string-or-null a string), the
    /// third with the required members only when the first was an example, else random. Each creation is a body
    /// the contract finds valid (another one generated when it does not).
    ///
    /// Each sequence also sends each step whose operation requires credentials without them first (`ignored_auth`
    /// on a resource that exists, where a 2xx is possible: the coverage phase's probes go to ids made up, which a
    /// server that ignores the credentials answers 404 all the same). A deletion the server lets through without
    /// credentials stands for the sequence's deletion (the read after it checks `use_after_free`).
    package func runStateful(until deadline: ContinuousClock.Instant?) async -> [CaseOutcome] {
        let planner = StatefulPlanner(description: description, document: document)
        var outcomes: [CaseOutcome] = []
        let count = min(Self.sequencesPerChain, max(configuration.maxExamples, 1))
        for chain in planner.chains() {
            for sequence in 0..<count {
                if let deadline, ContinuousClock.now >= deadline { return outcomes }
                outcomes += await runSequence(chain, number: sequence, probingCredentials: true)
            }
        }
        return outcomes
    }

    /// The creation of sequence `number` of `chain`, attempt `attempt`: a valid case, by the contract when it can
    /// find one.
    func creation(
        _ chain: StatefulPlanner.Chain, number: Int, attempt: Int, random: inout FuzzRandom
    ) -> FuzzCase {
        let example = attempt == 0 ? generator.cases(for: chain.create, phase: .examples).first : nil
        let fill: ValueGenerator.Fill
        switch number {
        case 0: fill = .requiredOnly
        case 1: fill = .every
        default:
            let first = generator.cases(for: chain.create, phase: .examples).first
            fill = first == nil ? .random : .requiredOnly
        }
        var create: FuzzCase
        if number == 0, let example {
            create = example
        } else {
            create = generator.randomCase(chain.create, number: number, &random, breaking: false, fill: fill)
            for _ in 1..<Self.validityAttempts where judge(create, request(for: create)) != .valid {
                create = generator.randomCase(chain.create, number: number, &random, breaking: false, fill: fill)
            }
        }
        create.phase = .stateful
        create.purpose = .stateful(.create)
        create.intent = .valid
        create.label = "create (sequence \(number + 1)\(attempt > 0 ? ", attempt \(attempt + 1)" : ""))"
        return create
    }

    /// One sequence of `chain`; when `probingCredentials`, each step that requires credentials is sent without them
    /// first.
    private func runSequence(
        _ chain: StatefulPlanner.Chain, number: Int, probingCredentials: Bool
    ) async
        -> [CaseOutcome]
    {
        var random = FuzzRandom.stream(seed: configuration.seed, UInt64(chain.create), 4, UInt64(number))
        var outcomes: [CaseOutcome] = []
        var create = creation(chain, number: number, attempt: 0, random: &random)
        var response: FuzzResponse?
        for attempt in 0..<Self.creationAttempts {
            if attempt > 0 { create = creation(chain, number: number, attempt: attempt, random: &random) }
            var created = await run(create)
            created.history = outcomes
            outcomes.append(created)
            // A refusal for what the server holds (a duplicate's 409) gets another body; a server error or no
            // answer ends the sequence.
            guard let answer = created.response else { return outcomes }
            if (200..<300).contains(answer.status) {
                response = answer
                break
            }
            guard (400..<500).contains(answer.status) else { return outcomes }
        }
        guard let response else { return outcomes }
        let createdBody = try? JSONParser.parse(response.body)

        let order: [FuzzCase.StatefulStep] = [.readAfterCreate, .update, .delete]
        var deleted = false
        var reader: FuzzCase?
        for step in order {
            for target in chain.targets where target.step == step {
                guard
                    var fuzzCase = targetCase(
                        target.operation, link: target.link, create: create, created: response,
                        createdBody: createdBody, random: &random)
                else { continue }
                fuzzCase.purpose = .stateful(step)
                fuzzCase.label = "\(Self.word(step)) after create (sequence \(number + 1))"
                if step == .readAfterCreate, reader == nil { reader = fuzzCase }
                if probingCredentials, configuration.checks.contains(.ignoredAuth),
                    SecurityFacts.requiresCredentials(description.operations[target.operation])
                {
                    var probe = fuzzCase
                    probe.purpose = .withoutCredentials(bogus: false)
                    probe.label = "\(Self.word(step)) without credentials after create (sequence \(number + 1))"
                    var outcome = await run(probe)
                    outcome.history = outcomes
                    outcomes.append(outcome)
                    // A deletion let through without credentials is the sequence's deletion: read after it.
                    if step == .delete, let status = outcome.response?.status, (200..<300).contains(status) {
                        deleted = true
                        break
                    }
                }
                var outcome = await run(fuzzCase)
                outcome.history = outcomes
                outcomes.append(outcome)
                if step == .delete, let status = outcome.response?.status, (200..<300).contains(status) {
                    deleted = true
                }
                if step == .delete { break }
            }
        }
        if deleted, var read = reader {
            read.purpose = .stateful(.readAfterDelete)
            read.label = "read after delete (sequence \(number + 1))"
            var outcome = await run(read)
            outcome.history = outcomes
            outcomes.append(outcome)
        }
        return outcomes
    }

    private static func word(_ step: FuzzCase.StatefulStep) -> String {
        switch step {
        case .create: "create"
        case .readAfterCreate: "read"
        case .update: "update"
        case .delete: "delete"
        case .readAfterDelete: "read after delete"
        }
    }

    /// A valid case of the operation at `index` on the resource `create` made: its path parameters from the link's
    /// expressions, else from the creation's own parameters of the same name and the new resource's id (the body's
    /// id property, else the last segment of `Location`).
    private func targetCase(
        _ index: Int, link: StatefulPlanner.Link?, create: FuzzCase, created: FuzzResponse, createdBody: JSONValue?,
        random: inout FuzzRandom
    ) -> FuzzCase? {
        var fuzzCase = generator.randomCase(index, number: 0, &random, breaking: false)
        fuzzCase.phase = .stateful
        fuzzCase.intent = .valid
        return bind(fuzzCase, link: link, create: create, created: created, createdBody: createdBody)
    }

    /// `fuzzCase` on the resource `create` made (`created` its response): the parameters the creation's own
    /// parameters of the same name give, then those the link's expressions give, else the last path parameter set
    /// to the new resource's id (the body's id property, else the last segment of `Location`); nil when no id is
    /// found. The stateful phase makes each step on a resource with it, and shrinking re-binds a step to the
    /// resource a re-run creates.
    func bind(
        _ fuzzCase: FuzzCase, link: StatefulPlanner.Link?, create: FuzzCase, created: FuzzResponse,
        createdBody: JSONValue?
    ) -> FuzzCase? {
        var fuzzCase = fuzzCase
        let operation = description.operations[fuzzCase.operation]
        for position in fuzzCase.parameters.indices {
            let parameter = fuzzCase.parameters[position]
            if let same = create.parameters.first(where: {
                $0.name == parameter.name && $0.location == parameter.location
            }),
                let value = same.value
            {
                fuzzCase.parameters[position].value = value
            }
        }
        if let link {
            for (name, expression) in link.parameters {
                guard let position = Self.linkedPosition(name, in: fuzzCase),
                    let value = StatefulPlanner.evaluate(
                        expression, request: create, requestBody: create.body?.value, response: created)
                else { continue }
                fuzzCase.parameters[position].value = value
            }
            return fuzzCase
        }
        // The last path parameter names the resource.
        guard let last = Self.lastTemplateName(operation.pathTemplate),
            let position = fuzzCase.parameters.firstIndex(where: { $0.location == .path && $0.name == last })
        else { return nil }
        if let id = StatefulPlanner.inferredID(for: last, in: createdBody) {
            fuzzCase.parameters[position].value = id
        } else if let location = created.header("Location"),
            let segment = location.split(separator: "?").first?.split(separator: "/").last
        {
            fuzzCase.parameters[position].value = .string(String(segment).removingPercentEncodingLeniently)
        } else {
            return nil
        }
        return fuzzCase
    }

    /// The positions of `fuzzCase`'s parameters that ``bind(_:link:create:created:createdBody:)`` sets from the
    /// creation `create`: those of a name the creation has, those the link names, else the last path parameter.
    func boundPositions(of fuzzCase: FuzzCase, link: StatefulPlanner.Link?, create: FuzzCase) -> Set<Int> {
        var positions = Set<Int>()
        for (position, parameter) in fuzzCase.parameters.enumerated()
        where create.parameters.contains(where: {
            $0.name == parameter.name && $0.location == parameter.location && $0.value != nil
        }) {
            positions.insert(position)
        }
        if let link {
            for (name, _) in link.parameters {
                if let position = Self.linkedPosition(name, in: fuzzCase) { positions.insert(position) }
            }
        } else if let last = Self.lastTemplateName(description.operations[fuzzCase.operation].pathTemplate),
            let position = fuzzCase.parameters.firstIndex(where: { $0.location == .path && $0.name == last })
        {
            positions.insert(position)
        }
        return positions
    }

    /// The position of the parameter a link names (`id`, `path.id`) in `fuzzCase`.
    private static func linkedPosition(_ name: String, in fuzzCase: FuzzCase) -> Int? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let (location, bare) =
            parts.count == 2 && ["path", "query", "header", "cookie"].contains(parts[0])
            ? (parts[0], parts[1]) : (nil, name)
        return fuzzCase.parameters.firstIndex(where: {
            $0.name == bare && (location == nil || $0.location.rawValue == location)
        })
    }

    /// The name of the last `{template}` of `path`.
    static func lastTemplateName(_ path: String) -> String? {
        guard let open = path.lastIndex(of: "{"), let close = path[open...].firstIndex(of: "}") else { return nil }
        return String(path[path.index(after: open)..<close])
    }
}

extension String {
    /// The text with `%XX` escapes decoded (an invalid one kept as it is).
    var removingPercentEncodingLeniently: String {
        var bytes: [UInt8] = []
        var iterator = Array(utf8)
        var index = 0
        while index < iterator.count {
            if iterator[index] == 0x25, index + 2 < iterator.count,
                let value = UInt8(String(decoding: iterator[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(iterator[index])
                index += 1
            }
        }
        iterator.removeAll()
        return String(decoding: bytes, as: UTF8.self)
    }
}
