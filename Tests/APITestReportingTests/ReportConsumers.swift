import Foundation

/// Runs the real tools that read reports (xmllint, prove) from unit tests.
enum ReportConsumers {
    /// `shared/testdata/junit/junit-10.xsd`, beside the repository (or `APITEST_JUNIT_XSD`).
    static var junitSchema: String {
        if let path = ProcessInfo.processInfo.environment["APITEST_JUNIT_XSD"], !path.isEmpty { return path }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.deletingLastPathComponent().appendingPathComponent("shared/testdata/junit/junit-10.xsd").path
    }

    /// `junit-10.xsd` with the two attributes apitest adds to `testcase` by default (`file`, `line`), written to
    /// `directory`: the report with locations is checked against the schema with exactly these two added, the
    /// report without them against the schema itself.
    static func junitSchemaWithLocations(in directory: URL) throws -> String {
        let schema = try String(contentsOfFile: junitSchema, encoding: .utf8)
        let anchor = "<xs:attribute name=\"classname\" type=\"xs:string\"/>"
        guard schema.components(separatedBy: anchor).count == 2 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: junitSchema])
        }
        let extended = schema.replacingOccurrences(
            of: anchor,
            with: anchor
                + "<xs:attribute name=\"file\" type=\"xs:string\"/><xs:attribute name=\"line\" type=\"xs:positiveInteger\"/>"
        )
        let path = directory.appendingPathComponent("junit-10-locations.xsd")
        try extended.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    /// A tool on `PATH`, or nil.
    static func tool(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `tool` to completion; standard output and error together.
    static func run(_ tool: URL, _ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
