#if canImport(Glibc)
    import Glibc
#endif

/// The settings of the process's allocator that the executable changes: mimalloc, which it links on Linux
/// (Package.swift), looked up at run time so that a process without it (another platform) changes nothing.
///
/// mimalloc keeps memory a program frees for `decommit_delay` milliseconds (25 by default) before it gives the
/// pages back, in case they are wanted again. Loading a suite frees most of what it allocates soon after: the YAML
/// node tables, the file's text, and each array of nodes or tests that grew by doubling. Kept, the smaller arrays
/// stay resident while their successors fill, and the peak RSS of `apitest run` over 10,000 tests was 5–6 MiB higher
/// (bench/README.md, issue 38 item 4). So the commands that load suites give freed memory back at once: `run`
/// until its run starts, as its run's memory, reused test after test, would be faulted in again (0.45 more faults
/// a test); `load` throughout, as its iterations reuse theirs (about 0.1 more faults an iteration) and what the
/// load frees as it ends (task frames, pooled transfers) stayed resident beside the report's encoding (the peak of
/// `load --rate 5000/s --report-json` 44–45 MiB against 38–39). A delay set in the environment
/// (`MIMALLOC_DECOMMIT_DELAY`, or `MIMALLOC_PURGE_DELAY` of mimalloc 2.1) is the user's choice and stays.
enum AllocatorSettings {
    /// `mi_option_decommit_delay` in mimalloc 2.0 (`mi_option_purge_delay` from 2.1, the same number).
    private static let decommitDelay: Int32 = 15
    /// The variables that set the delay from the environment.
    static let delayVariables = ["MIMALLOC_DECOMMIT_DELAY", "MIMALLOC_PURGE_DELAY"]
    /// The subcommands that load suites before they run anything.
    static let loadingCommands: Set<String> = ["run", "load", "validate", "list"]

    private typealias SetOption = @convention(c) (Int32, Int) -> Void
    private typealias GetOption = @convention(c) (Int32) -> Int

    /// mimalloc's `mi_option_set` and `mi_option_get`, nil when the process does not have mimalloc.
    private static let options: (set: SetOption, get: GetOption)? = {
        #if canImport(Glibc)
            guard let process = dlopen(nil, RTLD_NOW), let set = dlsym(process, "mi_option_set"),
                let get = dlsym(process, "mi_option_get")
            else { return nil }
            return (unsafeBitCast(set, to: SetOption.self), unsafeBitCast(get, to: GetOption.self))
        #else
            return nil
        #endif
    }()

    /// The delay before `decommitFreedMemoryAtOnce` changed it, to restore; nil when it is not changed. Written
    /// only by the main task, before and after loading.
    nonisolated(unsafe) private static var savedDelay: Int?

    /// mimalloc's decommit delay in milliseconds; nil without mimalloc.
    static var currentDecommitDelay: Int? { options.map { $0.get(decommitDelay) } }

    /// Freed memory is given back to the system at once while a suite loads, for a command that loads suites
    /// (`arguments` without the program's name) and unless the environment sets the delay. Returns whether it
    /// changed the delay.
    @discardableResult
    static func decommitFreedMemoryAtOnce(
        arguments: some Collection<String>,
        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
    ) -> Bool {
        guard let options, savedDelay == nil, let command = arguments.first, loadingCommands.contains(command),
            !delayVariables.contains(where: { environment($0) != nil })
        else { return false }
        savedDelay = options.get(decommitDelay)
        options.set(decommitDelay, 0)
        return true
    }

    /// Restores the delay that `decommitFreedMemoryAtOnce` changed (`run` does, once its suites are loaded and
    /// before its run starts; `load` keeps the change); nothing when it changed nothing.
    static func restoreDecommitDelay() {
        guard let options, let delay = savedDelay else { return }
        options.set(decommitDelay, delay)
        savedDelay = nil
    }
}
