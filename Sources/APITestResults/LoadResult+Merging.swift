// MARK: - Adding up the figures of several load generators

extension LoadResult.Counts {
    /// Adds `counts` to `total`.
    package static func += (total: inout LoadResult.Counts, counts: LoadResult.Counts) {
        total.started += counts.started
        total.completed += counts.completed
        total.passed += counts.passed
        total.failed += counts.failed
        total.errored += counts.errored
        total.late += counts.late
    }
}

extension LoadResult.TestStats {
    /// Adds `other`'s iterations of the same test: counts, histograms (bucket by bucket), steps by index, errors by
    /// kind and failed checks by assertion.
    package mutating func merge(_ other: LoadResult.TestStats) {
        counts += other.counts
        latency.merge(other.latency)
        for step in other.steps {
            if let position = steps.firstIndex(where: { $0.index == step.index }) {
                steps[position].latency.merge(step.latency)
                if let first = step.firstEvent {
                    if steps[position].firstEvent == nil { steps[position].firstEvent = LatencyHistogram() }
                    steps[position].firstEvent?.merge(first)
                }
            } else {
                steps.append(step)
            }
        }
        steps.sort { $0.index < $1.index }
        errors.merge(other.errors, uniquingKeysWith: +)
        for failure in other.failures {
            if let position = failures.firstIndex(where: {
                $0.location == failure.location && $0.subject == failure.subject
            }) {
                failures[position].count += failure.count
            } else {
                failures.append(failure)
            }
        }
    }
}
