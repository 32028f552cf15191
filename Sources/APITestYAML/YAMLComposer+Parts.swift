import Foundation

// MARK: - Composing in parts

extension YAMLComposer {
    /// The fewest bytes of text for it to be composed in parts on several cores.
    package static let partsThreshold = 128 * 1024
    /// The deepest nesting of a part that is joined, less than `LoadBudget.maximumNesting`: a part's items are one
    /// level less deep than in the whole text.
    package static let deepestNestingInParts = LoadBudget.maximumNesting

    /// Composes `source` in parts on several cores, when it is a suite whose long `tests` list comes last (see
    /// `YAMLPartPlan`): the first part is the text up to the first cut, every other part a run of whole items. The
    /// parts' documents are joined into the document, node for node and mark for mark, that `compose(_:)` makes of
    /// the whole text.
    ///
    /// Returns `nil` when the text has no plan, or when a part does not compose on its own into what the plan
    /// expects: a problem in the text, a cut inside a scalar or a flow collection, an alias to an anchor of an
    /// earlier part, keys after the list. The caller then composes the text on one thread, which gives the
    /// document or the problem exactly as it always has.
    package static func composeInParts(
        _ source: String, parts: Int = ProcessInfo.processInfo.activeProcessorCount, minimumBytes: Int = partsThreshold
    ) -> (document: YAMLDocument, root: YAMLNode?)? {
        var text = source
        text.makeContiguousUTF8()
        return text.withUTF8 { bytes -> (document: YAMLDocument, root: YAMLNode?)? in
            guard bytes.count >= minimumBytes, let plan = YAMLPartPlan(bytes, parts: min(parts, 8)) else {
                return nil
            }
            let count = plan.starts.count
            var composed = [Result<(document: YAMLDocument, root: YAMLNode?), YAMLComposeError>?](
                repeating: nil, count: count)
            composed.withUnsafeMutableBufferPointer { results in
                nonisolated(unsafe) let results = results
                nonisolated(unsafe) let bytes = bytes
                DispatchQueue.concurrentPerform(iterations: count) { part in
                    // The first part's tables get room for the whole text: the other parts are appended to them.
                    results[part] = compose(
                        UnsafeBufferPointer(rebasing: bytes[plan.range(of: part)]), of: source,
                        reservingFor: part == 0 ? plan.byteCount : nil)
                }
            }
            // Each document is moved out of `composed`, so that no other value shares the first part's tables when
            // the others are appended to them: a shared table is copied whole first (3 MB at 10,000 tests, each
            // page of the copy faulted in on the one thread that joins).
            var parts: [(document: YAMLDocument, root: YAMLNode?)?] = []
            parts.reserveCapacity(count)
            for index in composed.indices {
                let result = composed[index]
                composed[index] = nil
                parts.append(try? result?.get())
            }
            return joined(&parts, plan: plan)
        }
    }

    /// The whole document from the parts' documents, or `nil` when a part is not what the plan expects. The first
    /// part's document is moved out of `parts` and the others appended to it.
    private static func joined(
        _ parts: inout [(document: YAMLDocument, root: YAMLNode?)?], plan: YAMLPartPlan
    ) -> (document: YAMLDocument, root: YAMLNode?)? {
        guard case (var head, let root?)? = parts.first ?? nil, head.kind(of: root) == .mapping,
            let list = head.pairs(of: root)?.last?.value, head.kind(of: list) == .sequence,
            head.mark(of: list) == (plan.firstItemLine, plan.indent + 1)
        else { return nil }
        parts[0] = nil
        var tails: [YAMLDocument.ListPart] = []
        for (part, composed) in parts.enumerated().dropFirst() {
            // A part alone is nested one level less deeply than in the whole text, under the nesting limit when
            // the whole is not: so deep a part goes back to one core, which reports where.
            guard case (let document, let tailRoot?)? = composed, tailRoot.index == 0,
                document.deepestNesting < Self.deepestNestingInParts,
                document.kind(of: tailRoot) == .sequence, document.mark(of: tailRoot) == (1, plan.indent + 1)
            else { return nil }
            tails.append(YAMLDocument.ListPart(document: document, lineOffset: plan.lineOffsets[part]))
        }
        guard head.appendItems(of: tails, toList: list, root: root) else { return nil }
        return (head, root)
    }
}
