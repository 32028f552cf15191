import APITestSecrets
import APITestSuite

// MARK: - Values computed from secrets

extension TestExecutor {
    /// What the step's templates and the default headers compute from secrets with functions
    /// (`{{ hmacSHA256(env.KEY, ...) }}`): secrets themselves. Texts shorter than a credential are left out, as
    /// they would mask unrelated text everywhere.
    static func computedSecrets(of step: Step, runtime: SuiteRuntime, _ context: TemplateContext) -> [String] {
        var texts: [String] = []
        step.forEachTemplate { texts += $0.derivedSecretTexts(context) }
        for header in runtime.suite.defaults.headers { texts += header.value.derivedSecretTexts(context) }
        return texts.filter { $0.utf8.count >= SecretMasker.shortestCredential }
    }
}
