import APITestSecurity
import APITestSupport
import ArgumentParser

/// The overrides ``SecurityFlags`` (`apitest run`'s TLS flags) make.
extension SecurityFlags {
    /// The overrides for the runner; throws for a `--pin` that is not a pin.
    func overrides() throws -> SecurityOverrides {
        SecurityOverrides(
            pinning: pinning, pins: try Self.parse(pins), certificates: certificates.map(Self.absolute),
            allowInvalidCertificates: allowInvalidCertificates ? true : nil,
            validatesDomainName: noValidateDomain ? false : nil, caFile: caFile.map(Self.absolute),
            clientCertificate: clientCertificate.map(Self.absolute), clientKey: clientKey.map(Self.absolute))
    }

    /// The pins of `--pin`; throws the first that is not a pin as a usage error.
    static func parse(_ pins: [String]) throws -> [PublicKeyPin] {
        do {
            return try pins.map { text throws(SecurityProblem) in try PublicKeyPin(text) }
        } catch {
            throw ValidationError("--pin: \(error.message(in: .plainWords))")
        }
    }

    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        FilePaths.absolute(path)
    }
}
