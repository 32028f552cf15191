/// Why a security policy, pin or certificate file cannot be used.
public struct SecurityPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
