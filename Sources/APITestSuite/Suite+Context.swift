import APITestJSON

// MARK: - Context

extension Suite {
    /// The context a run starts from: `env.NAME` entries (secret), then the suite variables rendered in order
    /// (secret when they use a secret), with `--var` values (not secret) replacing or adding variables.
    public func makeContext() throws(TemplateError) -> TemplateContext {
        var context = TemplateContext(environment: environment)
        // Variables may use the built-in values; tests get fresh ones, variables keep those of the run's start.
        // Made only when a variable uses one: a UUID and random numbers are not free, and this runs at every load.
        let builtins = TemplateContext.builtinNames
        if variables.contains(where: { $0.value.referencedNames.contains(where: builtins.contains) }) {
            context.setBuiltins()
        }
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) {
            context.set(name, .string(value), secret: secretOverrides.contains(name))
        }
        for variable in variables where overrides[variable.name] == nil {
            let value = try variable.value.render(context)
            context.set(variable.name, value, secret: context.usesSecret(variable.value))
        }
        return context
    }
}
