import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation

/// What the commands do with ``SuiteOptions`` (suite paths, variables, colour).
extension SuiteOptions {
    /// The `--var` values by name (a later `--var` of the same name wins): those ``validate()`` read; options never
    /// validated read them now, the same way.
    func overrides() throws -> [String: String] {
        Dictionary(try validatedVariables ?? parsedVariables()) { _, later in later }
    }

    /// The one reading of `--var`: each as a name and a value, in the order given. A name must be one a suite
    /// variable may have (``VariableName``): `--var env.HOME=x` cannot replace an environment variable.
    func parsedVariables() throws -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for item in variables {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ValidationError("--var expects name=value, got '\(item)'")
            }
            let name = String(item[..<equals])
            if let problem = VariableName.problem(name) {
                throw ValidationError(problem.message(name: name, source: "--var"))
            }
            result.append((name, String(item[item.index(after: equals)...])))
        }
        return result
    }

    /// The suites the command line names, loaded and checked (every error of every file printed on `errorOutput`,
    /// then exit code 2), with them, every file they read and the files these options name added to `inputs`: how
    /// every command that loads suites starts (`run`, `load`, `validate`, `list`, `export curl`). The command adds
    /// its own inputs, then checks its outputs against `inputs` before it writes or sends anything. A command that
    /// selects tests passes `selecting`: an unset environment variable is then an error only for the tests it
    /// selects, reported by `SelectionOptions.select` (``SuiteLoader/defersUnsetEnvironment``).
    func loadSuites(
        environment: [String: String], errorOutput: StandardOutput, recordingInputsIn inputs: inout OutputGuard,
        selecting: Bool = false
    ) throws -> [Suite] {
        var loader = try setLoader(environment: environment, errorOutput: errorOutput)
        loader.loader.defersUnsetEnvironment = selecting
        guard let loaded = loader.load(paths: paths) else { throw ExitStatus.invalid.exitCode }
        inputs.add(loaded, options: self)
        return loaded
    }

    /// A loader for the suites with the variables of `--variables-file` and `--var`; a bad variables file is
    /// reported on `errorOutput` and ends the command with exit code 2.
    func setLoader(environment: [String: String], errorOutput: TextOutput) throws -> SuiteSetLoader {
        let colored = colored(errorOutput, environment: environment)
        var values: [String: String] = [:]
        var secrets: Set<String> = []
        var failed = false
        for path in variablesFiles {
            // The check of every file named on the command line, reported as the file's other errors are.
            if let problem = ReadableFile.problem(at: FilePaths.absolute(path)) {
                let message = problem.message(key: "--variables-file", path: path)
                let diagnostic = Diagnostic.error(message, at: SourceLocation(file: path, line: 1, column: 1))
                errorOutput.write(
                    SuiteLoadError(diagnostics: [diagnostic], source: nil).render(colored: colored) + "\n")
                failed = true
                continue
            }
            do {
                let file = try VariablesFile.load(path: path)
                for (name, value) in file.values {
                    values[name] = value
                    if file.secretNames.contains(name) { secrets.insert(name) } else { secrets.remove(name) }
                }
            } catch {
                errorOutput.write(error.render(colored: colored) + "\n")
                failed = true
            }
        }
        if failed {
            errorOutput.write("a variables file is invalid; nothing was run.\n")
            errorOutput.flush()
            throw ExitStatus.invalid.exitCode
        }
        for (name, value) in try overrides() {
            values[name] = value
            secrets.remove(name)
        }
        var loader = SuiteLoader(environment: environment, overrides: values)
        loader.secretOverrides = secrets
        loader.contracts = OpenAPIContractStore(strictSpec: spec.strictSpec)
        if let openapi {
            // Located at the start of each suite that uses it (the loader sets the place).
            loader.defaultOpenAPI = OpenAPISetting(
                path: openapi, absolutePath: FilePaths.absolute(openapi),
                location: SourceLocation(file: openapi, line: 1, column: 1))
        }
        return SuiteSetLoader(loader: loader, errorOutput: errorOutput, colored: colored)
    }

    /// Whether diagnostics written to `output` are coloured (a terminal, neither `NO_COLOR` nor `--no-color`).
    func colored(_ output: TextOutput, environment: [String: String]) -> Bool {
        ANSIStyle.shouldColor(output: output, environment: environment, disabled: noColor)
    }
}
