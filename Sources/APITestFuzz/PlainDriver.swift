import APITestFuzzing
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The mutation loop without libFuzzer: replays the corpus, then runs `MutationFuzzer`'s inputs for a bounded
/// number of runs or seconds. A crash, a trap or an input that runs longer than `--timeout` seconds writes the input
/// to `crash-TARGET` (from the signal handler, with async-signal-safe calls only) and ends the process.
enum PlainDriver {
    /// Runs the loop with `arguments`; the process's exit code.
    static func run(_ target: FuzzTarget, arguments: [String]) -> Int32 {
        var runs = 10_000
        var seconds: Double?
        var seed: UInt64 = 1
        var timeout: UInt32 = 10
        var dictionary: [[UInt8]] = []
        var folders: [String] = []
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--runs": runs = value().flatMap { Int($0) } ?? runs
            case "--seconds": seconds = value().flatMap { Double($0) }
            case "--seed": seed = value().flatMap { UInt64($0) } ?? seed
            case "--timeout": timeout = value().flatMap { UInt32($0) } ?? timeout
            case "--dict":
                if let path = value(), let text = try? String(contentsOfFile: path, encoding: .utf8) {
                    dictionary = FuzzDictionary.tokens(text)
                }
            case let folder: folders.append(folder)
            }
            index += 1
        }
        CrashCapture.install(name: "crash-\(target.rawValue)", timeout: timeout)
        var corpus: [[UInt8]] = []
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
            for name in names {
                guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { continue }
                corpus.append(Array(data))
            }
        }
        for input in corpus {
            CrashCapture.execute(input) { target.run($0) }
        }
        var fuzzer = MutationFuzzer(corpus: corpus, dictionary: dictionary, seed: seed)
        let start = Date()
        var executions = corpus.count
        while seconds.map({ Date().timeIntervalSince(start) < $0 }) ?? (executions - corpus.count < runs) {
            CrashCapture.execute(fuzzer.next()) { target.run($0) }
            executions += 1
        }
        let elapsed = Date().timeIntervalSince(start)
        print(
            "apitest-fuzz \(target.rawValue): \(executions) executions (\(corpus.count) from the corpus) in "
                + String(format: "%.1f s", elapsed) + ", seed \(seed), no crash")
        return 0
    }
}

/// Keeps the input being run where a signal handler can write it out.
enum CrashCapture {
    nonisolated(unsafe) static var path: UnsafeMutablePointer<CChar> = strdup("crash")!
    nonisolated(unsafe) static var current: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) static var currentCount = 0
    nonisolated(unsafe) static var capacity = 0
    nonisolated(unsafe) static var timeout: UInt32 = 10

    /// Installs the handlers for SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT and SIGALRM.
    static func install(name: String, timeout: UInt32) {
        path = strdup(name)!
        self.timeout = timeout
        // A stack overflow leaves no stack to handle its signal on: the handlers run on a stack of their own.
        var stack = stack_t()
        stack.ss_size = 1 << 16
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: stack.ss_size, alignment: 16)
        sigaltstack(&stack, nil)
        for caught in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGALRM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let descriptor = open(CrashCapture.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                if descriptor >= 0 {
                    if let bytes = CrashCapture.current { _ = write(descriptor, bytes, CrashCapture.currentCount) }
                    close(descriptor)
                }
                let message = number == SIGALRM ? "apitest-fuzz: timeout\n" : "apitest-fuzz: crash\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                signal(number, SIG_DFL)
                raise(number == SIGALRM ? SIGABRT : number)
            }
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND)) | Int32(SA_ONSTACK)
            sigaction(caught, &action, nil)
        }
    }

    /// Runs `body` on `input`, with the input kept for the handlers and an alarm armed for the timeout.
    static func execute(_ input: [UInt8], _ body: ([UInt8]) -> Void) {
        if input.count > capacity {
            current?.deallocate()
            capacity = max(input.count, 2 * capacity, 4096)
            current = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        }
        input.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { current?.update(from: base, count: buffer.count) }
        }
        currentCount = input.count
        alarm(timeout)
        body(input)
        alarm(0)
    }
}
