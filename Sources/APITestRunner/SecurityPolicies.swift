package import APITestHTTP
package import APITestSecurity
package import APITestSuite

/// The security policies of one run: each suite's `security:` settings with the run's TLS flags laid over them,
/// built into the HTTP layer's policy once (certificate files are read once) by the preflight, and used by the
/// run. Suites with the same settings share one policy.
package struct SecurityPolicies: Sendable {
    /// The run's TLS flags.
    package let overrides: SecurityOverrides
    /// The built policies (or why they could not be built) by settings.
    private var built: [SecuritySettings: Result<SecurityPolicy, SecurityPolicyError>] = [:]

    /// No policy built yet, for a run with `overrides`.
    package init(overrides: SecurityOverrides) {
        self.overrides = overrides
    }

    /// The settings of `suite` under the run's flags; `nil` when neither sets anything (full verification).
    func settings(of suite: Suite) -> SecuritySettings? {
        overrides.applied(to: suite.security?.settings)
    }

    /// Builds the policies of those of `suites` whose settings have none yet.
    package mutating func build(for suites: [Suite]) {
        for suite in suites {
            guard let settings = settings(of: suite), built[settings] == nil else { continue }
            built[settings] = Self.policy(for: settings)
        }
    }

    /// The policy of `suite`: `nil` for the transport's defaults, or why its settings make no policy. A suite that
    /// `build(for:)` has not seen gets its policy built now.
    package func policy(of suite: Suite) -> Result<SecurityPolicy?, SecurityPolicyError> {
        guard let settings = settings(of: suite) else { return .success(nil) }
        return (built[settings] ?? Self.policy(for: settings)).map { $0 }
    }

    /// The HTTP layer's policy for `settings` (its certificate files read now), or why there is none.
    private static func policy(for settings: SecuritySettings) -> Result<SecurityPolicy, SecurityPolicyError> {
        do throws(SecurityPolicyError) {
            return .success(try SecurityPolicy(settings))
        } catch {
            return .failure(error)
        }
    }
}
