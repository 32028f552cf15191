/// What AWS Signature Version 4 needs: the access key, the secret key, the session token of temporary credentials,
/// and the scope (region and service). The one declaration of these credentials, over the type of its fields: values
/// (`String`) where the HTTP layer hands them to libcurl, which signs the request (`HTTPAuthentication.awsSigV4`);
/// templates in a loaded suite (`AuthSpec.awsSigV4`), rendered into values per request with ``map(_:)``; text as
/// written into a suite by `apitest import` (`SuiteDocument.Auth.awsSigV4`).
///
/// ```swift
/// let values = AWSSigV4Credentials(accessKey: "AKID", secretKey: "secret", region: "us-east-1", service: "s3")
/// let upper = values.map { $0.uppercased() }   // every field, the token too when there is one
/// ```
///
/// It lives in `APITestSupport`, the one target below the HTTP, suite, import (suite writing), secrets and runner
/// targets that all of them already import (`APITestSecurity` is the TLS model, which the writers do not see).
public struct AWSSigV4Credentials<Field> {
    /// The access key id (`AKIA...`).
    public var accessKey: Field
    /// The secret access key.
    public var secretKey: Field
    /// The session token of temporary credentials, sent as `x-amz-security-token`; nil for long-term credentials.
    public var sessionToken: Field?
    /// The region (`us-east-1`).
    public var region: Field
    /// The service (`s3`, `execute-api`, `sts`...).
    public var service: Field

    /// Credentials for signing requests to `service` in `region`.
    public init(accessKey: Field, secretKey: Field, sessionToken: Field? = nil, region: Field, service: Field) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
        self.region = region
        self.service = service
    }

    /// The same credentials with every field transformed, in the order `accessKey`, `secretKey`, `sessionToken`
    /// (when there is one), `region`, `service`: a suite's templates rendered into values.
    public func map<Other, Failure: Error>(
        _ transform: (Field) throws(Failure) -> Other
    ) throws(Failure) -> AWSSigV4Credentials<Other> {
        let accessKey = try transform(accessKey)
        let secretKey = try transform(secretKey)
        let sessionToken = try sessionToken.map { (field) throws(Failure) -> Other in try transform(field) }
        return AWSSigV4Credentials<Other>(
            accessKey: accessKey, secretKey: secretKey, sessionToken: sessionToken, region: try transform(region),
            service: try transform(service))
    }

    /// Every field, in the order of ``map(_:)`` (the session token only when there is one).
    public var fields: [Field] {
        [accessKey, secretKey] + (sessionToken.map { [$0] } ?? []) + [region, service]
    }
}

// MARK: - Conformances

extension AWSSigV4Credentials: Sendable where Field: Sendable {}
extension AWSSigV4Credentials: Equatable where Field: Equatable {}
extension AWSSigV4Credentials: Hashable where Field: Hashable {}
