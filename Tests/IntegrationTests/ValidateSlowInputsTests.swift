import Foundation
import Testing

/// Inputs that once made loading quadratic (or worse) must load in linear time: each is validated under a time
/// bound far above what linear loading takes in a debug build on a loaded CI machine (a few seconds) and far below
/// what the quadratic loader took (42 s to minutes). `bench/load` measures the release binary against a peer.
@Suite struct ValidateSlowInputsTests {
    /// The bound for one `apitest validate` of one input.
    static let bound: Duration = .seconds(30)

    /// One input: its file name, text, the exit code `validate` must give and text its output must hold.
    struct Input: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let exitCode: Int32
        let expected: String
        var testDescription: String { name }
    }

    static let request = "    steps:\n      - request: {url: 'http://127.0.0.1:9/'}\n"

    static var inputs: [Input] {
        var inputs: [Input] = []
        // 4,000 load errors, each with a did-you-mean suggestion and a source excerpt to render.
        var errors = "tests:\n"
        for index in 0..<4000 { errors += "  - name: t\(index)\n    stauts: 1\n" + request }
        inputs.append(Input(name: "errors.yaml", text: errors, exitCode: 2, expected: "4000 errors in 1 file"))
        // 4,000 placeholders in one string, each located in the source.
        let placeholders = Array(repeating: "{{ v }}", count: 4000).joined(separator: " ")
        inputs.append(
            Input(
                name: "placeholders.yaml",
                text: "variables: {v: x}\ntests:\n  - name: t\n    steps:\n      - request:\n"
                    + "          url: 'http://127.0.0.1:9/'\n          headers: {X: '\(placeholders)'}\n",
                exitCode: 0, expected: "1 suite, 1 test: valid"))
        // 20,000 variables, each using the one before.
        var variables = "variables:\n  v0: a\n"
        for index in 1..<20000 { variables += "  v\(index): '{{ v\(index - 1) }}'\n" }
        variables += "tests:\n  - name: t\n    steps:\n      - request: {url: 'http://127.0.0.1:9/{{ v19999 }}'}\n"
        inputs.append(Input(name: "variables.yaml", text: variables, exitCode: 0, expected: "1 suite, 1 test: valid"))
        // 50,000 tests of one name.
        var duplicates = "tests:\n"
        for _ in 0..<50000 { duplicates += "  - name: same\n" + request }
        inputs.append(Input(name: "duplicates.yaml", text: duplicates, exitCode: 2, expected: "49999 errors in 1 file"))
        // A 1 MiB scalar aliased 1,000 times: few nodes, a gigabyte of text once expanded.
        var bomb = "variables:\n  big: &big '" + String(repeating: "x", count: 1 << 20) + "'\n  m:\n"
        for index in 0..<1000 { bomb += "    k\(index): *big\n" }
        bomb += "tests:\n  - name: t\n" + request
        inputs.append(
            Input(
                name: "alias-bomb.yaml", text: bomb, exitCode: 2,
                expected: "the suite's values are too large (over 64 MiB of text once aliases are expanded)"))
        return inputs
    }

    @Test(arguments: inputs)
    func loadsInBoundedTime(_ input: Input) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(input.name)
        try input.text.write(to: file, atomically: true, encoding: .utf8)

        let result = try await runProcess(
            try TestBinaries.url("apitest"), ["validate", file.path], timeout: Self.bound)
        #expect(result.exitCode == input.exitCode, "\(result.stderr.suffix(500))")
        #expect((result.stdout + result.stderr).contains(input.expected), "\(result.stderr.suffix(500))")
    }
}
