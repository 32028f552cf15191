import Foundation

// MARK: - InterruptibleRun

/// The built `apitest`, started for a test that interrupts it as Ctrl-C would: its standard output is read to its end
/// on a thread of its own (standard error is dropped), and its exit status is kept when it ends.
final class InterruptibleRun: Sendable {
    /// The running `apitest`.
    let process: Process
    private let exited = OneShotValue<Int32>()
    private let drained: PipeDrain

    /// Starts `apitest arguments`, in `directory` when given, with `environment` laid over the current one.
    init(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws {
        process = Process()
        process.executableURL = try TestBinaries.url("apitest")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = self.exited
        process.terminationHandler = { exited.fulfill($0.terminationStatus) }
        try process.run()
        drained = PipeDrain(output.fileHandleForReading)
    }

    /// Sends SIGINT once `ready` holds (polled for up to `timeout`) and `settle` more has passed (a second one
    /// `secondAfter` later, when given), then waits up to a minute for the process to end: how long it took to end
    /// after the last signal, or `nil` when `ready` never held. From a thread of its own, which no other test's
    /// fixture delays (``onOwnThread(_:)``).
    func interrupt(
        when ready: @escaping @Sendable () -> Bool, timeout: Duration = .seconds(20),
        settle: Duration = .milliseconds(200), secondAfter: Duration? = nil
    ) async throws -> Duration? {
        let process = process
        let exited = exited
        return try await onOwnThread { () -> Duration? in
            guard pollUntil(timeout: timeout, ready) else { return nil }
            _ = pollUntil(timeout: settle) { false }
            process.interrupt()
            if let secondAfter {
                _ = pollUntil(timeout: secondAfter) { false }
                process.interrupt()
            }
            let sent = ContinuousClock.now
            _ = pollUntil(timeout: .seconds(60)) { exited.current != nil }
            return ContinuousClock.now - sent
        }
    }

    /// The exit status, once the process has ended.
    func exitStatus() async -> Int32 {
        await exited.wait()
    }

    /// Everything the process wrote to standard output, once it has closed it.
    func output() async -> String {
        String(decoding: await drained.result(), as: UTF8.self)
    }
}
