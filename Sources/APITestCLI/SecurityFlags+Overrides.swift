import APITestSecurity
import APITestSupport
import ArgumentParser

/// The overrides ``SecurityFlags`` (`apitest run`'s TLS flags) make.
extension SecurityFlags {
    /// The overrides for the runner: those ``validate()`` made; flags that were never validated (not parsed from a
    /// command line) are converted now, the same way. Throws for a `--pin` that is not a pin.
    func overrides() throws -> SecurityOverrides {
        try validated ?? converted()
    }

    /// The one conversion of the flags: `--pin` parsed (the first that is not a pin is a usage error), file paths
    /// made absolute, a flag not given left to the suites.
    func converted() throws -> SecurityOverrides {
        let parsedPins: [PublicKeyPin]
        do {
            parsedPins = try pins.map { text throws(SecurityProblem) in try PublicKeyPin(text) }
        } catch {
            throw ValidationError("--pin: \(error.message(in: .plainWords))")
        }
        return SecurityOverrides(
            pinning: pinning, pins: parsedPins, certificates: certificates.map(Self.absolute),
            allowInvalidCertificates: allowInvalidCertificates ? true : nil,
            validatesDomainName: noValidateDomain ? false : nil, caFile: caFile.map(Self.absolute),
            clientCertificate: clientCertificate.map(Self.absolute), clientKey: clientKey.map(Self.absolute))
    }

    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        FilePaths.absolute(path)
    }
}
