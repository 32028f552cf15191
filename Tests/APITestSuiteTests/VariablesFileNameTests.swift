import APITestSupport
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// `--variables-file` entries follow the rule `--var` names do (``VariableName``): an `env.…` name would replace
/// the environment's value (and unmark it as secret), and a name no expression can read is a mistake.
@Suite("Variables file names")
struct VariablesFileNameTests {
    /// The one-line diagnostics of loading `text` with `load`, or `[]` when it loads.
    func diagnostics(
        _ load: (String, String) throws(SuiteLoadError) -> VariablesFile, _ text: String, file: String
    ) -> [String] {
        do {
            _ = try load(text, file)
            return []
        } catch {
            return error.diagnostics.map(DiagnosticRenderer.oneLine)
        }
    }

    @Test func anEnvironmentNameInADotenvFileIsALocatedError() {
        let text = "GOOD=1\nenv.HOME=/pwned\n  export env.PATH=/tmp\nbad.=1\n"
        #expect(
            diagnostics(VariablesFile.dotenv, text, file: "vars.env") == [
                "vars.env:2:1: error: 'env.HOME' is the environment variable HOME, which a variable cannot replace; "
                    + "set it in the environment instead",
                "vars.env:3:3: error: 'env.PATH' is the environment variable PATH, which a variable cannot replace; "
                    + "set it in the environment instead",
                "vars.env:4:1: error: invalid variable name 'bad.'; a name cannot end in '.' or '-'",
            ])
    }

    @Test func anEnvironmentNameInAYAMLFileIsALocatedError() {
        let text = "good: 1\nenv.HOME: /pwned\nname-: x\n'a b': 2\n"
        #expect(
            diagnostics(VariablesFile.yaml, text, file: "vars.yaml") == [
                "vars.yaml:2:1: error: 'env.HOME' is the environment variable HOME, which a variable cannot replace; "
                    + "set it in the environment instead",
                "vars.yaml:3:1: error: invalid variable name 'name-'; a name cannot end in '.' or '-'",
                "vars.yaml:4:1: error: invalid variable name 'a b'; names match [A-Za-z_][A-Za-z0-9_.-]*",
            ])
    }

    @Test func validNamesStillLoad() throws {
        let dotenv = try VariablesFile.dotenv("envelope=1\nENV_HOME=2\na.b-c=3\n", file: "ok.env")
        #expect(dotenv.values == ["envelope": "1", "ENV_HOME": "2", "a.b-c": "3"])
        let yaml = try VariablesFile.yaml("environment: x\nenv_token: y\n", file: "ok.yaml")
        #expect(yaml.values == ["environment": "x", "env_token": "y"])
    }
}
