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
                    results[part] = compose(UnsafeBufferPointer(rebasing: bytes[plan.range(of: part)]), of: source)
                }
            }
            return joined(composed.map { try? $0?.get() }, plan: plan)
        }
    }

    /// The whole document from the parts' documents, or `nil` when a part is not what the plan expects.
    private static func joined(
        _ parts: [(document: YAMLDocument, root: YAMLNode?)?], plan: YAMLPartPlan
    ) -> (document: YAMLDocument, root: YAMLNode?)? {
        guard let first = parts.first, case (var head, let root?)? = first, head.kind(of: root) == .mapping,
            let list = head.pairs(of: root)?.last?.value, head.kind(of: list) == .sequence,
            head.mark(of: list) == (plan.firstItemLine, plan.indent + 1)
        else { return nil }
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
