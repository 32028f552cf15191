package import APITestOpenAPI

/// Runs the checks on one response: the contract's response check for the conformance checks, and the case's
/// intent and purpose for the others.
package struct CheckEvaluator: Sendable {
    /// The document as a contract.
    package let contract: OpenAPIContract
    /// The checks selected.
    package let checks: Set<FuzzCheck>

    /// An evaluator of `checks` against `contract`.
    package init(contract: OpenAPIContract, checks: some Sequence<FuzzCheck>) {
        self.contract = contract
        self.checks = Set(checks)
    }

    /// The statuses a server gives when it refuses a request's data.
    package static let dataRejections: Set<Int> = [400, 422]

    /// The failures of the response to `fuzzCase` (of `operation`), whose intent was judged `intent`.
    package func evaluate(
        _ fuzzCase: FuzzCase, operation: OpenAPIOperation, intent: FuzzCase.Intent, routes: Bool = true,
        response: FuzzResponse
    ) -> [CheckFailure] {
        var failures: [CheckFailure] = []
        let status = response.status
        let isSuccess = (200..<300).contains(status)
        if status >= 500, checks.contains(.notAServerError) {
            failures.append(
                CheckFailure(.notAServerError, "the server answered \(status)", signature: "5xx"))
        }
        switch fuzzCase.purpose {
        case .unsupportedMethod:
            if checks.contains(.unsupportedMethod) {
                if status != 405 {
                    failures.append(
                        CheckFailure(
                            .unsupportedMethod,
                            "\(fuzzCase.method) is not declared for \(operation.pathTemplate): expected 405, got \(status)",
                            signature: "\(fuzzCase.method) status \(status / 100)xx"))
                } else if response.header("Allow") == nil {
                    failures.append(
                        CheckFailure(
                            .unsupportedMethod,
                            "405 for \(fuzzCase.method) \(operation.pathTemplate) has no Allow header",
                            signature: "no Allow"))
                }
            }
            return failures
        case .withoutCredentials(let bogus):
            if isSuccess, checks.contains(.ignoredAuth) {
                failures.append(
                    CheckFailure(
                        .ignoredAuth,
                        "\(operation.displayName) requires credentials, and a request with \(bogus ? "made-up ones" : "none") "
                            + "got \(status)", signature: bogus ? "made-up credentials" : "no credentials"))
            }
        case .stateful(let step):
            switch step {
            case .readAfterCreate where status == 404 && checks.contains(.ensureResourceAvailability):
                failures.append(
                    CheckFailure(
                        .ensureResourceAvailability,
                        "the resource just created cannot be read: \(operation.displayName) answered 404",
                        signature: "404 after create"))
            case .readAfterDelete where isSuccess && checks.contains(.useAfterFree):
                failures.append(
                    CheckFailure(
                        .useAfterFree,
                        "the resource just deleted can still be read: \(operation.displayName) answered \(status)",
                        signature: "\(status / 100)xx after delete"))
            default: break
            }
        case .data:
            break
        }
        if case .data = fuzzCase.purpose {
            switch intent {
            case .invalid(let keyword, let place) where isSuccess && checks.contains(.negativeDataRejection):
                failures.append(
                    CheckFailure(
                        .negativeDataRejection,
                        "a request whose \(place) breaks `\(keyword)` was accepted with \(status)",
                        signature: "\(keyword) \(Self.shape(of: place))"))
            case .valid where Self.dataRejections.contains(status) && checks.contains(.positiveDataAcceptance):
                failures.append(
                    CheckFailure(
                        .positiveDataAcceptance,
                        "a request that keeps the document's schemas was refused with \(status)",
                        signature: "status \(status)"))
            default: break
            }
        }
        // A response is held to the operation its request routes to; stateful steps are sent to it by design.
        if routes || fuzzCase.pathOverride != nil { failures += conformance(operation, fuzzCase.method, response) }
        return failures
    }

    /// The place without its pointer's array indexes, so one broken keyword of a property is one finding.
    private static func shape(of place: String) -> String {
        place.split(separator: "/").map { $0.allSatisfy(\.isNumber) ? "N" : String($0) }.joined(separator: "/")
    }

    /// The conformance checks, through the contract's response check.
    private func conformance(
        _ operation: OpenAPIOperation, _ method: String, _ response: FuzzResponse
    ) -> [CheckFailure] {
        guard method == operation.method else { return [] }
        let checked = contract.checkResponse(
            operation,
            ContractResponse(
                status: response.status, headers: response.headerPairs, body: ContractDataBody(response.body),
                requestMethod: method))
        var failures: [CheckFailure] = []
        for violation in checked.violations {
            let check: FuzzCheck
            var signature = "\(response.status)"
            switch violation.kind {
            case .undeclaredStatus(let status, _):
                check = .statusCodeConformance
                signature = "status \(status)"
            case .missingContentType, .undeclaredContentType:
                check = .contentTypeConformance
            case .missingHeader(let name):
                check = .responseHeadersConformance
                signature += " header \(name.lowercased())"
            case .schemaMismatch where violation.instancePath?.hasPrefix("header ") == true:
                check = .responseHeadersConformance
                signature += " \(violation.instancePath ?? "") \(violation.keyword ?? "")"
            case .schemaMismatch:
                check = .responseSchemaConformance
                signature += " \(Self.shape(of: violation.instancePath ?? "")) \(violation.keyword ?? "")"
            case .missingBody, .invalidJSON:
                check = .responseSchemaConformance
            case .missingParameter:
                continue
            }
            guard checks.contains(check) else { continue }
            failures.append(CheckFailure(check, violation.message, signature: signature))
        }
        return failures
    }
}
