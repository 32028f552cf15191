import APITestSupport
import Testing

@testable import APITestHTTP

/// The one rule for request metadata keys (`GRPCMetadataKey`, in the basics both the suite and the HTTP layer
/// import): the transport's check is that rule, each problem its own error.
struct GRPCMetadataKeyTests {
    @Test(
        arguments: [
            ("x-trace", nil), ("a.b_c-9", nil), ("", GRPCMetadataKey.Problem.empty),
            ("x trace", .invalidCharacter), ("X-Trace", .invalidCharacter), (":path", .invalidCharacter),
            ("grpc-timeout", .reserved), ("te", .reserved), ("content-type", .reserved), ("host", .reserved),
        ] as [(String, GRPCMetadataKey.Problem?)])
    func theTransportRefusesWhatTheRuleRefuses(key: String, problem: GRPCMetadataKey.Problem?) {
        #expect(GRPCMetadataKey.problem(key) == problem)
        let transport: GRPCError.MetadataProblem? =
            switch problem {
            case nil: nil
            case .empty: .emptyKey
            case .invalidCharacter: .invalidKeyCharacter
            case .reserved: .reservedKey
            }
        #expect(GRPCMetadata.keyProblem(key) == transport)
    }
}
