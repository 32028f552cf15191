import APITestJSON
package import APITestSuite

// MARK: - The context rendered with stand-ins

extension ReproduceSentinels {
    /// `context` with a stand-in of these sentinels for every secret and every name of `unknownCaptures`.
    ///
    /// `env.NAME` becomes the stand-in of the variable `NAME`; a suite variable built from secrets is rendered again
    /// from the stand-ins (so `password: "{{ env.PW }}"` stands for `PW` too), unless a capture replaced it; any
    /// other secret (a capture from a secret, a secret `--var`) gets a stand-in of its own.
    package mutating func shadow(
        of context: TemplateContext, suite: Suite, suiteContext: TemplateContext, unknownCaptures: Set<String>
    ) -> TemplateContext {
        var shadow = context
        for name in unknownCaptures.sorted() {
            shadow.set(name, .string(token(for: .capture(name))), secret: false)
        }
        let prefix = TemplateContext.environmentPrefix
        for name in context.secretNamesSorted {
            if name.hasPrefix(prefix) {
                let variable = String(name.dropFirst(prefix.count))
                shadow.set(name, .string(token(for: .environment(variable))), secret: true)
            } else {
                let given = suite.overrides[name] != nil
                shadow.set(name, .string(token(for: .derived(name, given: given))), secret: true)
            }
        }
        for variable in suite.variables
        where context.isSecret(variable.name) && suite.overrides[variable.name] == nil
            && context[variable.name] == suiteContext[variable.name]
        {
            guard let value = try? variable.value.render(shadow) else { continue }
            shadow.set(variable.name, value, secret: true)
        }
        return shadow
    }
}
