import Testing

@testable import APITestCLI

/// mimalloc's decommit delay while suites load (issue 38 item 4): a command that loads suites gives freed memory
/// back at once until its run starts, then has its delay back; other commands, and a delay the environment sets,
/// are left alone. The test binary links mimalloc as the executable does (docs/architecture.md), so the option is
/// real here. One test: the setting is the process's.
@Suite(.serialized) struct AllocatorSettingsTests {
    @Test func loadingCommandsDecommitAtOnceUntilTheRunThenRestoreTheDelay() throws {
        let before = try #require(AllocatorSettings.currentDecommitDelay, "the test binary links mimalloc")
        let noEnvironment: (String) -> String? = { _ in nil }

        for command in ["run", "load", "validate", "list"] {
            #expect(
                AllocatorSettings.decommitFreedMemoryAtOnce(
                    arguments: [command, "suite.yaml"], environment: noEnvironment))
            #expect(AllocatorSettings.currentDecommitDelay == 0, "\(command)")
            // A second call changes nothing: the delay to restore is the one before the first.
            #expect(!AllocatorSettings.decommitFreedMemoryAtOnce(arguments: [command], environment: noEnvironment))
            AllocatorSettings.restoreDecommitDelay()
            #expect(AllocatorSettings.currentDecommitDelay == before, "\(command)")
            // Restoring again, or without a change, does nothing.
            AllocatorSettings.restoreDecommitDelay()
            #expect(AllocatorSettings.currentDecommitDelay == before)
        }

        // Commands that load no suite, no command, and a delay the environment sets: nothing changes.
        for arguments in [["generate", "openapi"], ["fuzz"], ["--version"], []] {
            #expect(!AllocatorSettings.decommitFreedMemoryAtOnce(arguments: arguments, environment: noEnvironment))
            #expect(AllocatorSettings.currentDecommitDelay == before, "\(arguments)")
        }
        for variable in AllocatorSettings.delayVariables {
            let set: (String) -> String? = { $0 == variable ? "25" : nil }
            #expect(!AllocatorSettings.decommitFreedMemoryAtOnce(arguments: ["run", "suite.yaml"], environment: set))
            #expect(AllocatorSettings.currentDecommitDelay == before, "\(variable)")
        }
    }
}
