// apitest-demo: the demo HTTP API that apitest's examples and integration tests run against.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let options: DemoOptions
do {
    options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    DemoApplication.writeAll(fd: 2, "apitest-demo: error: \(error)\n")
    exit(2)
}
if options.help {
    DemoApplication.writeAll(fd: 1, DemoOptions.usage + "\n")
    exit(0)
}
exit(await DemoApplication.run(options))
