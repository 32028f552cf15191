import APITestSuiteWriting

/// What the generator makes of one operation: a test, or the reason it cannot be built honestly.
enum OperationPlan: Sendable {
    /// The test as the suite writes it (its request relative to the suite's `baseURL`, its summary as a comment and
    /// its remarks as notes above it), and the environment variables its credential placeholders name.
    case test(SuiteDocument.Test, environment: [String])
    /// The reason, for a comment in the file (`the required body is multipart/form-data`).
    case skipped(reason: String)
}
