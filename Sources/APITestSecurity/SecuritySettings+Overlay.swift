extension SecuritySettings {
    /// These settings with `overrides` laid over them. Pins or certificates given without a mode, over settings
    /// that pin nothing, mean `publicKey` (or `certificate` when only certificates are given).
    package func overlaid(with overrides: SecurityOverrides) -> SecuritySettings {
        var result = self
        if let pinning = overrides.pinning { result.pinning = pinning }
        if !overrides.pins.isEmpty { result.pins = overrides.pins }
        if !overrides.certificates.isEmpty { result.certificates = overrides.certificates }
        if let allow = overrides.allowInvalidCertificates { result.allowInvalidCertificates = allow }
        if let validates = overrides.validatesDomainName { result.validatesDomainName = validates }
        if let caFile = overrides.caFile { result.caFile = caFile }
        if let clientCertificate = overrides.clientCertificate { result.clientCertificate = clientCertificate }
        if let clientKey = overrides.clientKey { result.clientKey = clientKey }
        if overrides.pinning == nil, result.pinning == .none, !overrides.pins.isEmpty || !overrides.certificates.isEmpty
        {
            result.pinning = overrides.pins.isEmpty ? .certificate : .publicKey
        }
        return result
    }
}
