public import APITestSecurity

/// Why a security policy, pin or certificate file cannot be used: a problem of the settings under the model's
/// rules, or a file that holds no certificate or key.
public struct SecurityPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    public var message: String
    /// The rule the settings break, when that is the reason (not a file's contents).
    public var problem: SecurityProblem?

    /// An error with its sentence (a file that cannot be read).
    public init(_ message: String) {
        self.message = message
    }

    /// The error for a problem of the settings, in plain words.
    public init(_ problem: SecurityProblem) {
        self.message = problem.message(in: .plainWords)
        self.problem = problem
    }

    public var description: String { message }
}
