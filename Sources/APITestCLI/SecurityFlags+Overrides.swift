import APITestRunner
import APITestSupport

/// The overrides ``SecurityFlags`` (`apitest run`'s TLS flags) make.
extension SecurityFlags {
    /// The overrides for the runner.
    func overrides() throws -> SecurityOverrides {
        SecurityOverrides(
            pinning: pinning, pins: pins, certificates: certificates.map(Self.absolute),
            allowInvalidCertificates: allowInvalidCertificates ? true : nil,
            validatesDomainName: noValidateDomain ? false : nil, caFile: caFile.map(Self.absolute),
            clientCertificate: clientCertificate.map(Self.absolute), clientKey: clientKey.map(Self.absolute))
    }

    static func absolute(_ path: String) -> String {
        FilePaths.absolute(path)
    }
}
