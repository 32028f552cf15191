import Testing

@testable import APITestSecurity

/// The run's flags laid over a suite's settings: each flag given replaces its setting, pins or certificates
/// without a mode choose one, and nothing given leaves the transport's defaults.
struct SecurityOverlayTests {
    static let pinA = PublicKeyPin(sha256: Array(repeating: 1, count: 32))
    static let pinB = PublicKeyPin(sha256: Array(repeating: 2, count: 32))

    static let suite = SecuritySettings(
        pinning: .publicKey, pins: [pinA, pinB], certificates: ["/suite.pem"], caFile: "/ca.pem",
        clientCertificate: "/client.pem", clientKey: "/client.key", hosts: ["api.example.com"])

    @Test func noFlagsAndNoBlockMeanTheDefaults() {
        #expect(SecurityOverrides().isEmpty)
        #expect(SecurityOverrides().applied(to: nil) == nil)
        #expect(SecurityOverrides().applied(to: Self.suite) == Self.suite)
        #expect(SecurityOverrides(caFile: "/x.pem").applied(to: nil) == SecuritySettings(caFile: "/x.pem"))
    }

    @Test func eachFlagGivenReplacesItsSetting() {
        let overrides = SecurityOverrides(
            pinning: .certificate, pins: [Self.pinB], certificates: ["/flag.pem"], allowInvalidCertificates: true,
            validatesDomainName: false, caFile: "/flag-ca.pem", clientCertificate: "/flag-client.pem",
            clientKey: "/flag-client.key")
        #expect(
            Self.suite.overlaid(with: overrides)
                == SecuritySettings(
                    pinning: .certificate, pins: [Self.pinB], certificates: ["/flag.pem"],
                    allowInvalidCertificates: true, validatesDomainName: false, caFile: "/flag-ca.pem",
                    clientCertificate: "/flag-client.pem", clientKey: "/flag-client.key", hosts: ["api.example.com"]))
        // Pins replace pins, and the suite's certificates stay.
        let pins = Self.suite.overlaid(with: SecurityOverrides(pins: [Self.pinB]))
        #expect(pins.pins == [Self.pinB] && pins.certificates == ["/suite.pem"] && pins.pinning == .publicKey)
    }

    @Test func pinsOrCertificatesWithoutAModeChooseOne() {
        #expect(SecurityOverrides(pins: [Self.pinA]).applied(to: nil)?.pinning == .publicKey)
        #expect(SecurityOverrides(certificates: ["/c.pem"]).applied(to: nil)?.pinning == .certificate)
        #expect(
            SecurityOverrides(pins: [Self.pinA], certificates: ["/c.pem"]).applied(to: nil)?.pinning == .publicKey)
        // A mode given, or one the suite set, is kept.
        #expect(
            SecurityOverrides(pinning: PinningMode.none, pins: [Self.pinA]).applied(to: nil)?.pinning
                == PinningMode.none)
        let certificateMode = SecuritySettings(pinning: .certificate)
        let kept = SecurityOverrides(pins: [Self.pinA]).applied(to: certificateMode)
        #expect(kept?.pinning == .certificate)
        // Flags that pin nothing leave the mode alone.
        #expect(SecurityOverrides(allowInvalidCertificates: true).applied(to: nil)?.pinning == PinningMode.none)
    }
}
