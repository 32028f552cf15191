import Foundation
import Testing

/// What `apitest` loads when it starts: libraries that only some runs need are loaded when first used, which the
/// dynamic loader's own trace (`LD_DEBUG=files`) shows.
@Suite struct StartupTests {
    func write(_ yaml: String, name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-startup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The libraries the dynamic loader reported loading, with how (`needed by …` or `dynamically loaded by …`).
    func loadedLibraries(_ result: ProcessResult) -> [String: String] {
        var libraries: [String: String] = [:]
        for line in result.stderr.split(separator: "\n") {
            guard let range = line.range(of: "file=") else { continue }
            let rest = line[range.upperBound...]
            guard let end = rest.firstIndex(of: " ") else { continue }
            let name = String(rest[..<end])
            if rest.contains("needed by") || rest.contains("dynamically loaded by") {
                libraries[name] = String(rest)
            }
        }
        return libraries
    }

    /// How libxml2 was loaded (its soname depends on its version), if it was.
    static func libxml2(in libraries: [String: String]) -> String? {
        libraries.first { $0.key.hasPrefix("libxml2.so") }?.value
    }

    @Test func libxml2IsLoadedOnlyWhenAnXMLBodyIsDecoded() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let trace = ["LD_DEBUG": "files"]
        let json = try write(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: json
                request: {url: /json}
                expect: {status: 200, json: {$.slideshow.slides: {count: {greaterThan: 0}}}}
            """, name: "json.yaml")
        defer { try? FileManager.default.removeItem(at: json.deletingLastPathComponent()) }
        let jsonRun = try await runProcess(
            try TestBinaries.url("apitest"), ["run", json.path, "--no-color"], environment: trace)
        #expect(jsonRun.exitCode == 0, "\(jsonRun.stdout)")
        let atJSON = loadedLibraries(jsonRun)
        #expect(atJSON["libcurl.so.4"] != nil, "the trace lists what was loaded")
        #expect(Self.libxml2(in: atJSON) == nil, "a run without XML bodies does not load libxml2")

        let xml = try write(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: xml
                request: {url: /xml}
                expect: {status: 200, xml: {"count(//book)": 3, "//book[1]/title": "Swift on the Server"}}
            """, name: "xml.yaml")
        defer { try? FileManager.default.removeItem(at: xml.deletingLastPathComponent()) }
        let xmlRun = try await runProcess(
            try TestBinaries.url("apitest"), ["run", xml.path, "--no-color"], environment: trace)
        #expect(xmlRun.exitCode == 0, "\(xmlRun.stdout)")
        let loaded = try #require(Self.libxml2(in: loadedLibraries(xmlRun)))
        #expect(loaded.contains("dynamically loaded by"), "loaded on first use, not at start-up: \(loaded)")

        let validate = try await runProcess(
            try TestBinaries.url("apitest"), ["validate", xml.path], environment: trace)
        #expect(validate.exitCode == 0)
        #expect(Self.libxml2(in: loadedLibraries(validate)) == nil)
    }

    @Test func aMissingLibxml2StopsARunWithXPathBeforeAnythingIsSent() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        // The dynamic loader searches LD_LIBRARY_PATH first: an empty file there under libxml2's soname (2 before
        // libxml2 2.14, 16 from it on) is a broken libxml2.
        let libraries = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-nolibxml2-\(UUID())")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: libraries) }
        for soname in ["libxml2.so.2", "libxml2.so.16"] {
            try Data().write(to: libraries.appendingPathComponent(soname))
        }
        let broken = ["LD_LIBRARY_PATH": libraries.path]

        let xml = try write(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: xml
                request: {url: /xml}
                expect: {xml: {"count(//book)": 3}}
            """, name: "xml.yaml")
        defer { try? FileManager.default.removeItem(at: xml.deletingLastPathComponent()) }
        let stopped = try await runProcess(
            try TestBinaries.url("apitest"), ["run", xml.path, "--no-color"], environment: broken)
        #expect(stopped.exitCode == 3, "\(stopped.stdout)\(stopped.stderr)")
        #expect(
            stopped.stderr.contains("the selected tests use XPath, which needs libxml2: libxml2 could not be loaded"))
        #expect(stopped.stderr.contains("nothing was run"))
        #expect(!stopped.stdout.contains("xml ›"), "no test ran: \(stopped.stdout)")

        let json = try write(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: json
                request: {url: /json}
                expect: {json: {$.slideshow.title: Sample Slide Show}}
            """, name: "json.yaml")
        defer { try? FileManager.default.removeItem(at: json.deletingLastPathComponent()) }
        let unaffected = try await runProcess(
            try TestBinaries.url("apitest"), ["run", json.path, "--no-color"], environment: broken)
        #expect(unaffected.exitCode == 0, "a run without XPath does not need libxml2: \(unaffected.stdout)")
    }

    /// The allocator every library of the process uses: mimalloc, linked into the executable (glibc's malloc cost a
    /// run 6-17 % of its CPU). In the loader's binding trace every library's `malloc` and `free` (libcurl's, libc's
    /// own) go to the executable's entries, and those go to mimalloc; nothing binds them to glibc's.
    @Test func everyLibraryAllocatesThroughMimalloc() async throws {
        let run = try await runProcess(
            try TestBinaries.url("apitest"), ["--version"], environment: ["LD_DEBUG": "bindings"])
        #expect(run.exitCode == 0)
        var targets: [String] = []
        for line in run.stderr.split(separator: "\n") {
            guard let to = line.range(of: " to "), let symbol = line.range(of: ": normal symbol `") else { continue }
            let name = line[symbol.upperBound...].prefix { $0 != "'" }
            guard name == "malloc" || name == "free" else { continue }
            targets.append(line[to.upperBound..<symbol.lowerBound].split(separator: " ").first.map(String.init) ?? "")
        }
        #expect(targets.count >= 4, "the trace shows where malloc and free bind: \(run.stderr.suffix(2000))")
        #expect(targets.contains { $0.contains("libmimalloc") }, "\(targets)")
        #expect(!targets.contains { $0.hasSuffix("libc.so.6") }, "malloc or free binds to glibc's: \(targets)")
        let verbose = try await runProcess(
            try TestBinaries.url("apitest"), ["--version"], environment: ["MIMALLOC_VERBOSE": "1"])
        #expect(verbose.stderr.contains("mimalloc: process init"))
    }
}
