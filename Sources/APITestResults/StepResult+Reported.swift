// MARK: - Read from a report

extension StepResult {
    /// A step as a JSON report apitest wrote holds it (`steps[]` of a test): its texts were sealed when the report
    /// was written. Made only by decoding that JSON, so no module outside this one builds a step's result from
    /// text of its own: the way in besides ``StepDraft/sealed(by:)``.
    package struct Reported: Sendable, Decodable {
        /// The step the report recorded.
        let step: StepResult

        /// Decodes a step of a JSON report (``ReportStep``, the shape the JSON report writes).
        package init(from decoder: any Decoder) throws {
            step = StepResult(try ReportStep(from: decoder))
        }
    }

    /// The step a report recorded (`apitest merge`, reports written again from JSON).
    package init(reported step: Reported) {
        self = step.step
    }
}
