#if APITEST_LIBFUZZER
    import APITestFuzzing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// libFuzzer's own driver (`LLVMFuzzerRunDriver`, linked by `-sanitize=fuzzer`) running one target.
    enum LibFuzzerDriver {
        /// Runs libFuzzer with `arguments` (the program's name, then libFuzzer's options and corpus folders) on
        /// `target`; its exit code.
        static func run(_ target: FuzzTarget, arguments: [String]) -> Int32 {
            selectedTarget = target
            var argc = Int32(arguments.count)
            var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            return cStrings.withUnsafeMutableBufferPointer { buffer in
                var argv = buffer.baseAddress
                return llvmFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput)
            }
        }
    }

    /// The target the callback runs; set once before the driver starts.
    nonisolated(unsafe) var selectedTarget = FuzzTarget.yaml

    /// libFuzzer's entry point: runs the selected target on one input. Also exported under its C name, which
    /// libFuzzer's archive refers to.
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        selectedTarget.run(bytes)
        return 0
    }

    /// libFuzzer's driver for programs that have their own `main`.
    @_silgen_name("LLVMFuzzerRunDriver")
    func llvmFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32
#endif
