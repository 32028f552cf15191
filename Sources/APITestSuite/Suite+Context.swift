import APITestJSON

// MARK: - Context

extension Suite {
    /// The context a run starts from: `env.NAME` entries (secret), then the suite variables rendered in order
    /// (secret when they use a secret), with `--var` values (not secret) replacing or adding variables. A variable
    /// that uses an unset environment variable (``UnsetEnvironment/variables``, kept for the selection) is left out.
    package func makeContext() throws(TemplateError) -> TemplateContext {
        var context = TemplateContext(environment: environment)
        // Variables (and the base URL, defaults) may use the built-in values; tests get fresh ones, these keep those
        // of the run's start. Made only when one of them uses one: a UUID and random numbers are not free, and this
        // runs at every load.
        if !suiteLevelNames.isDisjoint(with: TemplateContext.builtinNames) { context.setBuiltins() }
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) {
            context.set(name, .string(value), secret: secretOverrides.contains(name))
        }
        let leftOut = unsetEnvironment.variables
        for (index, variable) in variables.enumerated() where overrides[variable.name] == nil {
            // A variable that uses an unset environment variable: no test that runs uses it (`UnsetEnvironment`).
            if !leftOut.isEmpty && leftOut.contains(index) { continue }
            let value = try variable.value.render(context)
            context.set(variable.name, value, secret: context.usesSecret(variable.value))
        }
        return context
    }

    /// The names used by what is rendered with the suite's context rather than a test's: variables, the base
    /// URL, and the defaults (which tests render again with their own).
    package var suiteLevelNames: Set<String> {
        var names = namesUsedByDefaults
        for variable in variables { names.formUnion(variable.value.referencedNames) }
        names.formUnion(baseURL?.referencedNames ?? [])
        return names
    }

    /// The names used by the defaults every test renders: default headers, authentication and transport settings, and
    /// the default retry's `until`.
    package var namesUsedByDefaults: Set<String> {
        var names = Set<String>()
        for header in defaults.headers { names.formUnion(header.value.referencedNames) }
        for template in defaults.auth?.templates ?? [] { names.formUnion(template.referencedNames) }
        for template in defaults.transport?.templates ?? [] { names.formUnion(template.referencedNames) }
        for assertion in defaults.retry?.until?.assertions ?? [] { names.formUnion(assertion.argument.referencedNames) }
        return names
    }
}
