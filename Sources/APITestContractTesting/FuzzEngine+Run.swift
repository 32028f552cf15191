package import APITestJSON

// MARK: - A whole run

extension FuzzEngine {
    /// Runs the phases in order, then shrinks each finding.
    package func execute() async -> FuzzRun {
        let start = ContinuousClock.now
        let deadline = configuration.duration.map { start + $0 }
        let cases = generatedCases()
        let sent = await run(cases, until: deadline)
        var outcomes = sent.compactMap { $0 }
        let notSent = sent.count - outcomes.count
        if configuration.phases.contains(.stateful), !configuration.dryRun {
            outcomes += await runStateful(until: deadline)
        }
        var findings = FuzzRun.findings(of: outcomes)
        if !configuration.dryRun {
            for index in findings.indices {
                // Shrinking keeps to --duration too: past it, findings are kept as found.
                let stateful = findings[index].outcome.fuzzCase.phase == .stateful
                if let deadline, ContinuousClock.now >= deadline {
                    if stateful { findings[index].reproduction = .notTried }
                    continue
                }
                if stateful {
                    let shrinking = await shrinkSequence(findings[index], until: deadline)
                    findings[index].shrunk = shrinking.shrunk
                    findings[index].reproduction = shrinking.reproduction
                    findings[index].shrinkNotes = shrinking.notes
                } else {
                    findings[index].shrunk = await shrink(findings[index])
                }
            }
        }
        return FuzzRun(outcomes: outcomes, notSent: notSent, findings: findings, duration: ContinuousClock.now - start)
    }

    // MARK: - Shrinking

    /// The smallest case found that fails `finding`'s check the same way: optional parameters left out, optional
    /// body members left out, values made their simplest, strings and arrays cut, each kept only when the same
    /// failure (check and signature) is seen again; at most ``FuzzConfiguration/shrinkAttempts`` requests. Nil
    /// when nothing smaller fails the same way (or the finding is of a stateful sequence, which depends on what came
    /// before it: ``shrinkSequence(_:until:)`` shrinks those).
    package func shrink(_ finding: FuzzFinding) async -> CaseOutcome? {
        let original = finding.outcome.fuzzCase
        switch original.purpose {
        case .stateful: return nil
        default: break
        }
        var best: CaseOutcome?
        var current = original
        var attempts = 0
        func fails(_ candidate: FuzzCase) async -> CaseOutcome? {
            attempts += 1
            let outcome = await run(candidate)
            let same = outcome.failures.contains { $0.check == finding.check && $0.signature == finding.signature }
            return same ? outcome : nil
        }
        var progress = true
        while progress, attempts < configuration.shrinkAttempts {
            progress = false
            for candidate in smaller(current) {
                guard attempts < configuration.shrinkAttempts else { break }
                if let outcome = await fails(candidate) {
                    current = candidate
                    best = outcome
                    progress = true
                    break
                }
            }
        }
        return best
    }

    /// Cases one step smaller than `fuzzCase`, the biggest steps first.
    package func smaller(_ fuzzCase: FuzzCase) -> [FuzzCase] {
        var candidates: [FuzzCase] = []
        for position in fuzzCase.parameters.indices
        where !fuzzCase.parameters[position].isRequired && fuzzCase.parameters[position].value != nil {
            var candidate = fuzzCase
            candidate.parameters[position].value = nil
            candidates.append(candidate)
        }
        if let body = fuzzCase.body, body.encoding != .json && !body.encoding.keepsOnlyText {
            return candidates
        }
        if let body = fuzzCase.body {
            for value in Self.smallerValues(body.value) {
                var candidate = fuzzCase
                candidate.body?.value = value
                candidates.append(candidate)
            }
        }
        for position in fuzzCase.parameters.indices {
            guard let value = fuzzCase.parameters[position].value else { continue }
            for smaller in Self.smallerValues(value) where !CaseGenerator.nests(smaller) {
                var candidate = fuzzCase
                candidate.parameters[position].value = smaller
                candidates.append(candidate)
            }
        }
        return candidates
    }

    /// Values one step smaller than `value`: an object without one member, or with one member smaller; an array
    /// with half its items; a string of half its length; a number nearer zero.
    package static func smallerValues(_ value: JSONValue, depth: Int = 0) -> [JSONValue] {
        guard depth < 4 else { return [] }
        switch value {
        case .object(let object):
            var values: [JSONValue] = []
            for key in object.keys {
                var without = object
                without[key] = nil
                values.append(.object(without))
            }
            for (key, member) in object {
                for smaller in smallerValues(member, depth: depth + 1).prefix(2) {
                    var changed = object
                    changed[key] = smaller
                    values.append(.object(changed))
                }
            }
            return values
        case .array(let items) where !items.isEmpty:
            return [.array(Array(items.prefix(items.count / 2)))]
        case .string(let text) where text.count > 1:
            return [.string(String(text.prefix(text.count / 2)))]
        case .integer(let number) where number > 1 || number < -1:
            return [.integer(number / 2)]
        default:
            return []
        }
    }
}
