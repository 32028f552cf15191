import APITestJSON
import APITestOpenAPI

// MARK: - Shrinking a stateful finding

extension FuzzEngine {
    /// A step of a stateful sequence being shrunk: its case, and what it is to the other steps.
    struct SequenceStep: Sendable {
        /// The case as the run that found the finding sent it (a step on the resource is bound again to the
        /// resource each re-run creates).
        var fuzzCase: FuzzCase
        /// Its place in the sequence as run.
        var position: Int
        /// Whether it creates the resource the later steps work on: a re-run whose creation gets no 2xx is not
        /// the same sequence.
        var isProducer = false
        /// Whether it works on that resource (its parameters bound to what the creation made).
        var usesProducer = false
        /// The link it is bound through (nil: the id inferred).
        var link: StatefulPlanner.Link?
        /// Whether it is the deletion a read after delete stands on: a re-run in which it gets no 2xx is not the
        /// same sequence.
        var isDeletion = false
    }

    /// What shrinking a stateful finding made of it.
    struct SequenceShrinking: Sendable {
        /// The failing step of the smallest sequence that fails the same way (its ``CaseOutcome/history`` the steps
        /// before it), when it is smaller than the sequence as found.
        var shrunk: CaseOutcome?
        /// Whether re-running showed the failure again.
        var reproduction: FuzzFinding.Reproduction
        /// What was taken out, a sentence each.
        var notes: [String] = []
    }

    /// Shrinks a finding of the stateful phase: re-runs smaller sequences against the server (each re-run creates
    /// its resource anew, and the steps on it are bound to it through the same link or inferred id) and keeps one
    /// only when the same failure (check and signature) is seen at its last step, the failing one. First the
    /// failing step with only the steps it needs (the creation of the resource it works on, and for a read after
    /// delete the deletion); when that does not fail the same way, the whole sequence, then each other step left
    /// out in turn. Then the failing step's own request is made smaller with ``smaller(_:)`` (its bound parameters
    /// kept), then the other steps' (the creation's body kept valid when it was, so that the resource is still
    /// made). At most ``FuzzConfiguration/shrinkAttempts`` requests, none started after `deadline`; a candidate
    /// is only started when all its requests fit. A re-run whose creation the server refuses with a 4xx (it holds
    /// what the run made: a duplicate's 409) sends another valid body of the same members instead
    /// (``alternativeCreation(of:number:)``). Deterministic: the candidates come in a fixed order.
    ///
    /// A finding the re-runs do not show again is kept as found, ``FuzzFinding/Reproduction/notReproduced(requests:)``.
    func shrinkSequence(_ finding: FuzzFinding, until deadline: ContinuousClock.Instant?) async -> SequenceShrinking {
        let sequence = finding.outcome.history + [finding.outcome]
        guard let (steps, required) = sequenceSteps(of: sequence) else {
            return SequenceShrinking(shrunk: nil, reproduction: .notTried)
        }
        var budget = configuration.shrinkAttempts
        var alternatives = 0
        var replaced = false
        func attempt(_ candidate: [SequenceStep]) async -> (outcome: CaseOutcome, steps: [SequenceStep])? {
            if let deadline, ContinuousClock.now >= deadline { return nil }
            guard candidate.count <= budget else { return nil }
            // Each try its own: the server holds the ones tried before.
            let alternative = candidate.first(where: \.isProducer).flatMap {
                alternativeCreation(of: $0.fuzzCase, number: alternatives)
            }
            alternatives += 1
            guard
                let (outcome, creation) = await replay(
                    candidate, alternative: alternative, check: finding.check, signature: finding.signature,
                    budget: &budget)
            else { return nil }
            var steps = candidate
            if let creation, let index = steps.firstIndex(where: \.isProducer) {
                steps[index].fuzzCase = creation
                replaced = true
            }
            return (outcome, steps)
        }
        func outOfRoom(_ count: Int) -> Bool {
            if let deadline, ContinuousClock.now >= deadline { return true }
            return count > budget
        }

        // The steps. A deletion the run made without credentials (the server let it through) is made with them:
        // the read after it fails the same way, and the suite still deletes once the credentials are checked.
        var closure = steps.filter { required.contains($0.position) }
        var credentialed = false
        if let index = closure.firstIndex(where: \.isDeletion),
            case .withoutCredentials = closure[index].fuzzCase.purpose
        {
            closure[index].fuzzCase.purpose = .stateful(.delete)
            closure[index].fuzzCase.label = closure[index].fuzzCase.label.replacing(
                "delete without credentials", with: "delete")
            credentialed = true
        }
        if outOfRoom(closure.count) { return SequenceShrinking(shrunk: nil, reproduction: .notTried) }
        var best: [SequenceStep]
        var bestOutcome: CaseOutcome
        if let (outcome, kept) = await attempt(closure) {
            best = kept
            bestOutcome = outcome
        } else if closure.count < steps.count || credentialed, let (outcome, kept) = await attempt(steps) {
            credentialed = false
            best = kept
            bestOutcome = outcome
            var index = 0
            while index < best.count, !outOfRoom(best.count - 1) {
                guard !required.contains(best[index].position) else {
                    index += 1
                    continue
                }
                var candidate = best
                candidate.remove(at: index)
                if let (outcome, kept) = await attempt(candidate) {
                    best = kept
                    bestOutcome = outcome
                } else {
                    index += 1
                }
            }
        } else {
            // Nothing sent (--duration ran out first): not re-run.
            let sent = configuration.shrinkAttempts - budget
            return SequenceShrinking(shrunk: nil, reproduction: sent == 0 ? .notTried : .notReproduced(requests: sent))
        }

        // The requests: the failing step's, then the creation's, then the others'.
        let last = best.count - 1
        var order = [last]
        if let producer = best.firstIndex(where: \.isProducer) { order.append(producer) }
        order += best.indices.filter { !order.contains($0) }
        for index in order {
            var progress = true
            while progress, !outOfRoom(best.count) {
                progress = false
                for candidate in smallerSteps(best, at: index) {
                    if outOfRoom(best.count) { break }
                    var trial = best
                    trial[index].fuzzCase = candidate
                    if let (outcome, kept) = await attempt(trial) {
                        best = kept
                        bestOutcome = outcome
                        progress = true
                        break
                    }
                }
            }
        }

        var notes = Self.shrinkNotes(from: steps, to: best, replacedCreation: replaced)
        if credentialed, let deletion = best.first(where: \.isDeletion) {
            notes.append("\(deletion.fuzzCase.label): sent with the credentials (the run's went without them)")
        }
        if replaced, let producer = best.first(where: \.isProducer) {
            notes.insert(
                "\(producer.fuzzCase.label): another valid body of the same members, as the server refused the run's "
                    + "again (a duplicate of what the run made)", at: 0)
        }
        return SequenceShrinking(shrunk: notes.isEmpty ? nil : bestOutcome, reproduction: .reproduced, notes: notes)
    }

    // MARK: - The sequence's steps

    /// The steps of `sequence` (the failing step last) and the positions of those the failing step needs: itself,
    /// the creation of the resource it works on, and for a read after delete the deletion before it. Nil when the
    /// sequence is not one the stateful phase makes (a step on a resource without its creation).
    private func sequenceSteps(of sequence: [CaseOutcome]) -> (steps: [SequenceStep], required: Set<Int>)? {
        guard let failing = sequence.last else { return nil }
        let last = sequence.count - 1
        let isCreate = failing.fuzzCase.purpose == .stateful(.create)
        let producer = sequence.indices.dropLast().last {
            sequence[$0].fuzzCase.purpose == .stateful(.create) && Self.succeeded(sequence[$0])
        }
        if !isCreate, producer == nil { return nil }
        var required: Set<Int> = [last]
        var deletion: Int?
        if !isCreate, let producer { required.insert(producer) }
        if failing.fuzzCase.purpose == .stateful(.readAfterDelete) {
            deletion = sequence.indices.dropLast().last {
                Self.isDeletion(sequence[$0]) && Self.succeeded(sequence[$0])
            }
            guard let deletion else { return nil }
            required.insert(deletion)
        }
        let chain = producer.flatMap { producer in
            StatefulPlanner(description: description, document: document).chains().first {
                $0.create == sequence[producer].fuzzCase.operation
            }
        }
        let steps = sequence.enumerated().map { position, outcome in
            var step = SequenceStep(fuzzCase: outcome.fuzzCase, position: position)
            step.isProducer = position == producer && !isCreate
            step.usesProducer = producer.map { position > $0 } ?? false
            step.link = chain?.targets.first { $0.operation == outcome.fuzzCase.operation }?.link
            step.isDeletion = position == deletion
            return step
        }
        return (steps, required)
    }

    /// Whether `outcome` got a 2xx.
    static func succeeded(_ outcome: CaseOutcome) -> Bool {
        outcome.response.map { (200..<300).contains($0.status) } ?? false
    }

    /// Whether `outcome` is a deletion of a sequence: the one with credentials or the one without them.
    static func isDeletion(_ outcome: CaseOutcome) -> Bool {
        switch outcome.fuzzCase.purpose {
        case .stateful(.delete): true
        case .withoutCredentials: outcome.fuzzCase.phase == .stateful && outcome.request.method == "DELETE"
        default: false
        }
    }

    // MARK: - Re-running

    /// Runs `steps` in order, each step on the resource bound to what this run's creation made, and returns the
    /// last step's outcome (the steps before it as its history) when it fails `check` with `signature`; nil when
    /// it does not, or when the sequence is not the same (the creation or the deletion gets no 2xx, no id is found
    /// for a step). Each request takes one from `budget`.
    ///
    /// When the creation gets a 4xx (the server holds what the run made: a duplicate's 409), `alternative` is sent
    /// in its place, and returned with the outcome when the failure is seen again.
    private func replay(
        _ steps: [SequenceStep], alternative: FuzzCase?, check: FuzzCheck, signature: String, budget: inout Int
    ) async -> (outcome: CaseOutcome, creation: FuzzCase?)? {
        var outcomes: [CaseOutcome] = []
        var creation: FuzzCase?
        var producer: (fuzzCase: FuzzCase, response: FuzzResponse, body: JSONValue?)?
        for (index, step) in steps.enumerated() {
            var fuzzCase = step.fuzzCase
            if step.usesProducer {
                guard let producer,
                    let bound = bind(
                        fuzzCase, link: step.link, create: producer.fuzzCase, created: producer.response,
                        createdBody: producer.body)
                else { return nil }
                fuzzCase = bound
            }
            guard budget > 0 else { return nil }
            budget -= 1
            var outcome = await run(fuzzCase)
            if step.isProducer, let alternative, let status = outcome.response?.status, (400..<500).contains(status),
                budget >= steps.count - index
            {
                budget -= 1
                fuzzCase = alternative
                creation = alternative
                outcome = await run(fuzzCase)
            }
            outcome.history = outcomes
            if index == steps.count - 1 {
                let same = outcome.failures.contains { $0.check == check && $0.signature == signature }
                return same ? (outcome, creation) : nil
            }
            if step.isProducer {
                guard Self.succeeded(outcome), let response = outcome.response else { return nil }
                producer = (fuzzCase, response, try? JSONParser.parse(response.body))
            }
            if step.isDeletion, !Self.succeeded(outcome) { return nil }
            outcomes.append(outcome)
        }
        return nil
    }

    /// The cases one step smaller than the request of `steps[index]` (``smaller(_:)``): a step on the resource
    /// keeps the parameters bound to it, and a creation the contract found valid stays valid (the resource must
    /// still be made).
    private func smallerSteps(_ steps: [SequenceStep], at index: Int) -> [FuzzCase] {
        let step = steps[index]
        var candidates = smaller(step.fuzzCase)
        if step.usesProducer, let producer = steps.first(where: \.isProducer) {
            let bound = boundPositions(of: step.fuzzCase, link: step.link, create: producer.fuzzCase)
            candidates.removeAll { candidate in
                bound.contains { candidate.parameters[$0].value != step.fuzzCase.parameters[$0].value }
            }
        }
        if step.isProducer, judge(step.fuzzCase, request(for: step.fuzzCase)) == .valid {
            candidates.removeAll { judge($0, request(for: $0)) != .valid }
            // A parameter a later step takes from the creation stays as it is.
            let later = steps.filter(\.usesProducer)
            candidates.removeAll { candidate in
                candidate.parameters.indices.contains { position in
                    candidate.parameters[position].value != step.fuzzCase.parameters[position].value
                        && later.contains { step in
                            step.fuzzCase.parameters.contains {
                                $0.name == candidate.parameters[position].name
                                    && $0.location == candidate.parameters[position].location
                            }
                        }
                }
            }
        }
        return candidates
    }

    /// Another valid creation like `create` (the same parameters, a body of the same members with other values),
    /// for a re-run whose creation the server refuses because it holds what the run made (a duplicate's 409); nil
    /// when none is found valid. Try `number` of a shrinking has its own seeded stream: the same seed makes the
    /// same ones.
    private func alternativeCreation(of create: FuzzCase, number: Int) -> FuzzCase? {
        guard case .object(let original)? = create.body?.value else { return nil }
        var random = FuzzRandom.stream(seed: configuration.seed, UInt64(create.operation), 5, UInt64(number))
        for _ in 0..<Self.validityAttempts {
            let generated = generator.randomCase(create.operation, number: 0, &random, breaking: false, fill: .every)
            guard case .object(let members)? = generated.body?.value else { continue }
            var body = JSONObject()
            for (key, value) in original { body[key] = members[key] ?? value }
            var candidate = create
            candidate.body?.value = .object(body)
            if candidate.body?.value != create.body?.value, judge(candidate, request(for: candidate)) == .valid {
                return candidate
            }
        }
        return nil
    }

    // MARK: - Notes

    /// What shrinking took out of `original` to make `shrunk`, a sentence each: the steps left out, then per step
    /// kept, the parameters and body members left out and whether values were made simpler.
    static func shrinkNotes(
        from original: [SequenceStep], to shrunk: [SequenceStep], replacedCreation: Bool = false
    ) -> [String] {
        var notes: [String] = []
        let kept = Set(shrunk.map(\.position))
        let removed = original.filter { !kept.contains($0.position) }
        if !removed.isEmpty {
            notes.append(
                "shrunk from \(original.count) steps to \(shrunk.count): left out "
                    + removed.map(\.fuzzCase.label).joined(separator: "; "))
        }
        for step in shrunk where !(replacedCreation && step.isProducer) {
            guard let before = original.first(where: { $0.position == step.position })?.fuzzCase else { continue }
            let after = step.fuzzCase
            var parts: [String] = []
            let parameters = zip(before.parameters, after.parameters).filter { $0.0.value != nil && $0.1.value == nil }
                .map { "\($0.0.location.rawValue) \($0.0.name)" }
            if !parameters.isEmpty { parts.append("parameters left out: " + parameters.joined(separator: ", ")) }
            if case .object(let old)? = before.body?.value, case .object(let new)? = after.body?.value {
                let members = old.keys.filter { new[$0] == nil }
                if !members.isEmpty { parts.append("body members left out: " + members.joined(separator: ", ")) }
            }
            let simpler =
                zip(before.parameters, after.parameters).contains {
                    $0.0.value != nil && $0.1.value != nil && $0.0.value != $0.1.value
                }
                || Self.simplified(before.body?.value, after.body?.value)
            if simpler { parts.append("values made simpler") }
            if !parts.isEmpty { notes.append("\(after.label): " + parts.joined(separator: "; ")) }
        }
        return notes
    }

    /// Whether a value kept in `after` differs from the same in `before` (members left out aside).
    private static func simplified(_ before: JSONValue?, _ after: JSONValue?) -> Bool {
        guard let before, let after else { return false }
        if case .object(let old) = before, case .object(let new) = after {
            return new.contains { member in old[member.key].map { $0 != member.value } ?? false }
        }
        return before != after
    }
}
