import APITestImport
import APITestSuiteWriting
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest import postman`: a Postman collection (v2.0 or v2.1), with its environment and globals, into one suite.
struct ImportPostmanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postman",
        abstract: "Write a suite from a Postman collection (v2.0 or v2.1) and its environment and globals.",
        usage: "apitest import postman <collection> [-e <file>] [-g <file>] [<options>]",
        discussion: """
            Every request becomes a test named by its folder path ('Users › Create user') and tagged with its \
            folders (--tag users selects them); a request that uses a variable an earlier request's script set \
            (pm.environment.set) becomes a later step of that request's test. Globals, collection and environment \
            variables become suite variables, the narrower scope winning as in Postman (override them with --var); \
            {{$guid}}, {{$timestamp}}, {{$isoTimestamp}} and {{$randomInt}} become apitest's built-ins. Basic, \
            bearer, API-key, digest, NTLM and AWS v4 auth are translated, other kinds noted. pm.test assertions on the status, \
            headers, body, response time and JSON members become checks, pm.environment.set(name, \
            pm.response.json().x) a capture; every script line not translated is listed on standard error as \
            'collection › folder › request: line N: <text>' and kept as a comment in the suite. Secret \
            environment values are read from the environment. Newman runs requests in order: run the suite with \
            --jobs 1 to keep it. See docs/import.md.

            Examples:
              apitest import postman api.postman_collection.json -o suites/api.yaml
              apitest import postman api.json -e staging.json -g globals.json -o api.yaml
              apitest run suites/api.yaml --jobs 1 --var baseUrl=http://127.0.0.1:8080
            """
    )

    @Argument(
        help: ArgumentHelp("The collection file (Postman's export, v2.0 or v2.1).", valueName: "collection"),
        completion: .file(extensions: ["json"]))
    var collection: String

    @Option(
        name: [.customShort("e"), .customLong("environment")],
        help: ArgumentHelp("A Postman environment file.", valueName: "file"), completion: .file(extensions: ["json"]))
    var environment: String?

    @Option(
        name: [.customShort("g"), .customLong("globals")],
        help: ArgumentHelp("A Postman globals file.", valueName: "file"), completion: .file(extensions: ["json"]))
    var globals: String?

    @OptionGroup var output: ImportOutputOptions

    mutating func validate() throws {
        try CommandLineFile.check(collection, flag: "collection")
        if let environment { try CommandLineFile.check(environment, flag: "--environment") }
        if let globals { try CommandLineFile.check(globals, flag: "--globals") }
        try output.checkOutput()
    }

    func run() throws {
        var inputs = OutputGuard()
        inputs.add(collection, as: .argument("the collection"))
        if let environment { inputs.add(environment, as: .flag("--environment")) }
        if let globals { inputs.add(globals, as: .flag("--globals")) }
        try output.check(against: inputs)
        let suite: SuiteDocument
        do {
            let decoded = try PostmanCollectionDecoder(file: collection).decode(try Self.bytes(collection))
            let environmentFile = try environment.map { path throws(JSONSourceError) in
                try PostmanEnvironment.decode(try Self.bytes(path), file: path)
            }
            let globalsFile = try globals.map { path throws(JSONSourceError) in
                try PostmanEnvironment.decode(try Self.bytes(path), file: path)
            }
            var importer = PostmanImporter(
                collection: decoded, environment: environmentFile, globals: globalsFile,
                files: [collection] + [environment, globals].compactMap { $0 })
            if let name = output.name { importer.collection.name = name }
            suite = importer.suite()
        } catch {
            let stderr = StandardOutput.error
            stderr.write("error: \(error)\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        try output.write(suite)
    }

    /// The bytes of a file checked readable by ``validate()``.
    static func bytes(_ path: String) throws(JSONSourceError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JSONSourceError(file: path, location: "", message: "cannot be read")
        }
        return Array(data)
    }
}
