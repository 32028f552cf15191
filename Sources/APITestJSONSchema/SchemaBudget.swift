// MARK: - SchemaBudget

/// The work one validation may do. A schema can make evaluation exponential without being wrong (N levels of
/// `anyOf: [{$ref: next}, {$ref: next}]` evaluate 2^N subschemas), so every subschema evaluated counts a step:
/// past the budget, or once the task is cancelled (a run interrupted by SIGTERM or Ctrl-C), evaluation stops and
/// the instance fails with an error saying so, never a verdict made of half an evaluation.
package enum SchemaBudget {
    /// Steps every validation may take, whatever the size of the instance.
    package static let minimumSteps = 1_000_000
    /// Steps more per value of the instance (a large document with a detailed schema legitimately takes many).
    package static let stepsPerValue = 64
    /// How many steps pass between two looks at `Task.isCancelled`.
    static let cancellationInterval = 1024

    /// The budget for an instance of `valueCount` values.
    package static func maximumSteps(forValues valueCount: Int) -> Int {
        minimumSteps + stepsPerValue.multipliedReportingOverflow(by: max(0, valueCount)).partialValue
    }

    /// Why an evaluation stopped before its verdict.
    package enum Interruption: Sendable, Hashable {
        /// More subschemas than the budget (the number) had to be evaluated.
        case budget(Int)
        /// The task validating was cancelled.
        case cancelled

        /// The error an interrupted validation reports, at the root.
        var error: JSONSchemaValidationError {
            switch self {
            case .budget(let steps):
                JSONSchemaValidationError(
                    instancePath: "", keyword: "$budget", schemaPath: "",
                    message: "schema evaluation exceeded \(steps) steps (nested anyOf, oneOf or allOf over $ref "
                        + "chains can multiply the work); the schema was not fully checked")
            case .cancelled:
                JSONSchemaValidationError(
                    instancePath: "", keyword: "$cancelled", schemaPath: "",
                    message: "schema evaluation was cancelled (the run was interrupted)")
            }
        }
    }
}
