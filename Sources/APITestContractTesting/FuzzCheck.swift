/// A check of `apitest fuzz`, named as Schemathesis names it so that its users recognise it.
package enum FuzzCheck: String, Sendable, Hashable, CaseIterable, Comparable {
    /// No response has a 5xx status.
    case notAServerError = "not_a_server_error"
    /// Every status is documented for its operation.
    case statusCodeConformance = "status_code_conformance"
    /// Every body's `Content-Type` is documented for its status.
    case contentTypeConformance = "content_type_conformance"
    /// Every body matches its documented schema.
    case responseSchemaConformance = "response_schema_conformance"
    /// Every required response header is present and matches its schema.
    case responseHeadersConformance = "response_headers_conformance"
    /// A request that breaks the document's schemas gets no 2xx.
    case negativeDataRejection = "negative_data_rejection"
    /// A request that keeps the document's schemas is not refused as bad data (400, 422).
    case positiveDataAcceptance = "positive_data_acceptance"
    /// A deleted resource is gone: reading it gets no 2xx.
    case useAfterFree = "use_after_free"
    /// A created resource can be read: reading it right away gets no 404.
    case ensureResourceAvailability = "ensure_resource_availability"
    /// A method the path does not declare gets 405 with an `Allow` header.
    case unsupportedMethod = "unsupported_method"
    /// A request without the credentials the document requires gets no 2xx.
    case ignoredAuth = "ignored_auth"

    /// The order checks are listed in.
    package static func < (lhs: FuzzCheck, rhs: FuzzCheck) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// What the check holds the API to, one line.
    package var summary: String {
        switch self {
        case .notAServerError: "no response has a 5xx status"
        case .statusCodeConformance: "every status is documented"
        case .contentTypeConformance: "every Content-Type is documented"
        case .responseSchemaConformance: "every body matches its schema"
        case .responseHeadersConformance: "required response headers are present and valid"
        case .negativeDataRejection: "a request that breaks the schemas gets no 2xx"
        case .positiveDataAcceptance: "a request that keeps the schemas is not refused as bad data"
        case .useAfterFree: "a deleted resource cannot be read"
        case .ensureResourceAvailability: "a created resource can be read"
        case .unsupportedMethod: "an undeclared method gets 405 with Allow"
        case .ignoredAuth: "a request without the required credentials gets no 2xx"
        }
    }

    /// The checks a comma-separated list names (`not_a_server_error,ignored_auth`); `all`, alone or in the list, for every check.
    ///
    /// - Throws: ``FuzzOptionError`` for an unknown name, with the closest known one.
    package static func parse(_ list: String) throws(FuzzOptionError) -> [FuzzCheck] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { FuzzNames.trimmed($0) }
        if names.isEmpty || names.contains("") { throw FuzzOptionError(.emptyList(option: "--checks")) }
        if names == ["all"] { return allCases }
        var checks: Set<FuzzCheck> = []
        for name in names {
            // `all` beside other names is all of them (the others are still checked).
            if name == "all" {
                checks.formUnion(allCases)
                continue
            }
            guard let check = FuzzCheck(rawValue: name) else {
                throw FuzzOptionError(
                    .unknownName(option: "--checks", name: name, known: allCases.map(\.rawValue) + ["all"]))
            }
            checks.insert(check)
        }
        return allCases.filter(checks.contains)
    }
}
