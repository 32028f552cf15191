package import APITestHTTP
package import APITestSuite

/// The hosts the tests of suites will connect to, as far as can be known before they run.
package enum ReachabilityTargets {
    /// The distinct endpoints of every step URL of `suites` that renders with the suite's variables (URLs that use
    /// values captured at run time are left out), resolved against the suite's base URL; sorted.
    package static func endpoints(of suites: [Suite]) -> [HostEndpoint] {
        var result = Set<HostEndpoint>()
        for suite in suites {
            guard var context = try? suite.makeContext() else { continue }
            // Steps get fresh built-ins when they run; any value stands in for them here.
            context.setBuiltins()
            let base = try? suite.baseURL?.render(context)
            for test in suite.tests where test.skip == nil {
                for step in test.steps {
                    guard let reference = try? step.request.url.render(context),
                        let url = try? URLResolver.resolve(reference, against: base),
                        let endpoint = HostEndpoint(url: url)
                    else { continue }
                    result.insert(endpoint)
                }
            }
        }
        return result.sorted()
    }
}
