import APITestHTTP
import APITestReporting
import APITestRunner
import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation

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

extension SecurityFlags {
    /// Builds every suite's policy before anything runs (certificate files are read here); reports each problem
    /// as `file:line:column: security: message` and returns false when there is one. Warns once about a single
    /// `--pin`.
    func checkPolicies(of suites: [Suite], errorOutput: StandardOutput) -> Bool {
        guard let overrides = try? overrides() else { return false }
        return Self.checkPolicies(
            of: suites, overrides: overrides, warnAboutSinglePin: !pins.isEmpty, errorOutput: errorOutput)
    }

    /// As `checkPolicies(of:errorOutput:)`, for given overrides (`apitest validate` passes none).
    static func checkPolicies(
        of suites: [Suite], overrides: SecurityOverrides, warnAboutSinglePin: Bool, errorOutput: StandardOutput
    ) -> Bool {
        var valid = true
        var policies: [SecurityPolicy] = []
        for suite in suites {
            do {
                if let policy = try overrides.policy(for: suite.security) { policies.append(policy) }
            } catch {
                let place = suite.security.map { "\($0.location)" } ?? suite.file
                errorOutput.write("error: \(place): security: \(error.message)\n")
                valid = false
            }
        }
        if valid, warnAboutSinglePin, let warning = policies.first?.singlePinWarning {
            errorOutput.write("warning: --pin: \(warning)\n")
        }
        errorOutput.flush()
        return valid
    }
}
