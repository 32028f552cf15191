import ArgumentParser
import Foundation
import Testing

@testable import APITestCLI

/// `--var NAME=value` names are checked as a suite's variable names are (issue 35, section 5): `--var env.HOME=x`
/// cannot replace an environment value (nor unmark it as secret), and names a placeholder could never read are a
/// usage error, in every command that loads suites and in `run`'s quick scan alike.
@Suite struct VariableOverrideTests {
    /// The usage error `run` gives for `arguments`, or `nil` when they parse.
    static func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try APITestCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return APITestCommand.message(for: error)
        }
    }

    @Test(arguments: [
        ("env.HOME=x", "--var: 'env.HOME' is the environment variable HOME, which a variable cannot replace"),
        ("a b=1", "--var: invalid variable name 'a b'; names match [A-Za-z_][A-Za-z0-9_.-]*"),
        ("{{x}}=1", "--var: invalid variable name '{{x}}'; names match [A-Za-z_][A-Za-z0-9_.-]*"),
        ("a.b.=3", "--var: invalid variable name 'a.b.'; a name cannot end in '.' or '-'"),
        ("a-=3", "--var: invalid variable name 'a-'; a name cannot end in '.' or '-'"),
        ("env.=3", "--var: invalid variable name 'env.'; a name cannot end in '.' or '-'"),
        ("1a=3", "--var: invalid variable name '1a'; names match [A-Za-z_][A-Za-z0-9_.-]*"),
    ])
    func badNamesAreUsageErrors(item: String, message: String) throws {
        for command in ["run", "validate", "list", "load"] {
            let error = try #require(Self.usageError([command, "suite.yaml", "--var", item]), "\(command) \(item)")
            #expect(error.contains(message), "\(command): \(error)")
            #expect(!error.contains("=3") && !error.contains("=x"), "the value stays out of the message: \(error)")
        }
        #expect(ArgumentScanner<RunCommand>.command(for: ["suite.yaml", "--var", item]) == nil)
    }

    @Test func namesASuiteVariableMayHaveAreAccepted() throws {
        let command = try #require(
            ArgumentScanner<RunCommand>.command(for: ["suite.yaml", "--var", "a.b-c_1=x=y", "--var", "_x="]))
        #expect(try command.suites.overrides() == ["a.b-c_1": "x=y", "_x": ""])
    }
}
