/// "Did you mean ...?" suggestions for misspelled names.
package enum Suggestion {
    /// The candidate closest to `word`: within Levenshtein distance 2 (1 for words of up to 3 characters),
    /// compared case-insensitively, or else one that `word` is a prefix of (at least 2 characters) or that is a
    /// prefix of `word`. `nil` when nothing is close enough.
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        let threshold = lowered.count <= 3 ? 1 : 2
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = candidate.lowercased()
            var distance = levenshtein(lowered, other)
            if distance > threshold {
                let isPrefix = lowered.count >= 2 && (other.hasPrefix(lowered) || lowered.hasPrefix(other))
                guard isPrefix else { continue }
                distance = 3
            }
            if best == nil || distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `"; did you mean 'x'?"` for the closest candidate, or an empty string.
    package static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// ``closest(to:in:)`` of `candidates` sorted, without sorting them (a set's order changes from run to run):
    /// of the candidates nearest to `word`, the one that sorts first. One pass, and the edit distance is worked
    /// out only for candidates whose length is within the threshold.
    package static func closest(to word: String, amongUnordered candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        let length = lowered.count
        let threshold = length <= 3 ? 1 : 2
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = candidate.lowercased()
            var distance = abs(other.count - length) <= threshold ? levenshtein(lowered, other) : threshold + 1
            if distance > threshold {
                let isPrefix = length >= 2 && (other.hasPrefix(lowered) || lowered.hasPrefix(other))
                guard isPrefix else { continue }
                distance = 3
            }
            if let current = best,
                distance > current.distance || (distance == current.distance && candidate >= current.candidate)
            {
                continue
            }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// `"; did you mean 'x'?"` for ``closest(to:amongUnordered:)``, or an empty string.
    package static func didYouMean(_ word: String, amongUnordered candidates: some Sequence<String>) -> String {
        closest(to: word, amongUnordered: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The edit distance between two strings, counted in characters.
    package static func levenshtein(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
