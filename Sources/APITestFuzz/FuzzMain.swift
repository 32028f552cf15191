import APITestFuzzing
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `apitest-fuzz TARGET [options] [CORPUS...]`: runs one fuzz target (`FuzzTarget`).
///
/// Built plainly, it replays the corpus folders and then runs the seeded mutation loop of `MutationFuzzer`:
/// `--runs N`, `--seconds S`, `--seed N`, `--dict FILE`, `--timeout S`; an input that crashes or hangs is written to
/// `crash-TARGET` in the current folder first. Built with `-sanitize=fuzzer -D APITEST_LIBFUZZER` (`scripts/fuzz.sh`,
/// `make fuzz`), every argument after the target goes to libFuzzer's driver instead (`-max_total_time=60
/// -dict=FILE Fuzz/corpus/yaml`).
@main
enum FuzzMain {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(
                Data("usage: apitest-fuzz TARGET [options] [CORPUS...]; targets: \(names)\n".utf8))
            exit(2)
        }
        #if APITEST_LIBFUZZER
            exit(LibFuzzerDriver.run(target, arguments: [arguments[0]] + arguments.dropFirst(2)))
        #else
            exit(PlainDriver.run(target, arguments: Array(arguments.dropFirst(2))))
        #endif
    }
}
