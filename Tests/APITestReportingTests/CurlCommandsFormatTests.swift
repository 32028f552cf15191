import APITestResults
import Testing

@testable import APITestReporting

/// The heading of a `--curl` file or an export: the shell it is for and the variables its commands read.
@Suite struct CurlCommandsFormatTests {
    @Test func theHeadingNamesEveryVariableTheCommandsRead() {
        let commands = [
            ReproduceCommand(
                words: [
                    "curl", "http://h/a", "-H", #"'Authorization: Bearer '"${API_TOKEN}""#, "-H",
                    #"'X-Id: '"${APITEST_ID}"'!'"#,
                ]),
            ReproduceCommand(
                words: [
                    "curl", "http://h/b", "--data-binary", #"'{"a":"${NOT_A_VARIABLE}"}'"#, "-H", #"'it'\''s "${X}"'"#,
                ],
                input: #"printf 'a%sb\000' "${APITEST_SECRET}""#),
            ReproduceCommand(words: ["curl", "http://h/c", "-H", #"'A: '"$(printf '\t')"'"${API_TOKEN}"'"#]),
        ]
        let script = CurlCommandsFormat.script(
            heading: "Heading.", commands.map { (label: "label", command: $0, problem: nil) })
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.prefix(4) == [
                "#!/bin/sh", "# Heading.", "# Quoted for any POSIX shell: sh FILE or bash FILE.",
                "# Set first (the notes say what each holds): APITEST_ID APITEST_SECRET API_TOKEN",
            ])
    }

    @Test func aScriptWithoutVariablesHasNoSuchLine() {
        let script = CurlCommandsFormat.script(
            heading: "Heading.",
            [(label: "label", command: ReproduceCommand(words: ["curl", "http://h/a"]), problem: nil)])
        #expect(!script.contains("Set first"))
    }
}
