import Foundation

// MARK: - CurlExchange

/// One HTTP exchange made with the `curl` command-line tool: status, headers and body of the final response.
struct CurlExchange: Sendable {
    /// The final response's status (0 when curl got no response).
    var status: Int
    /// The final response's header fields in order.
    var headers: [HeaderField]
    /// The final response's body (after decoding when `--compressed` was given).
    var body: Data
    /// curl's exit code (28 is a timeout, 0 success).
    var exitCode: Int32
    /// curl's standard output (what `-w` wrote).
    var stdout: String
    /// curl's standard error.
    var stderr: String

    struct HeaderField: Sendable, Equatable {
        var name: String
        var value: String
    }

    /// Runs `curl -sS -D <file> -o <file> OPTIONS URL` and reads back the last response's head and body.
    static func run(
        _ url: String, _ options: [String] = [], timeout: Duration = .seconds(60)
    ) async throws -> CurlExchange {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let headFile = folder.appendingPathComponent("head")
        let bodyFile = folder.appendingPathComponent("body")
        let result = try await runProcess(
            try TestBinaries.tool("curl"), ["-sS", "-D", headFile.path, "-o", bodyFile.path] + options + [url],
            timeout: timeout
        )
        let head = (try? String(contentsOf: headFile, encoding: .isoLatin1)) ?? ""
        let (status, headers) = parseLastHead(head)
        return CurlExchange(
            status: status, headers: headers, body: (try? Data(contentsOf: bodyFile)) ?? Data(),
            exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr
        )
    }

    /// The last `HTTP/...` block of a header dump (curl writes one per redirect and per 100 Continue).
    static func parseLastHead(_ dump: String) -> (Int, [HeaderField]) {
        var status = 0
        var headers: [HeaderField] = []
        // Split on scalars: as Characters, "\r\n" is one grapheme and would not match "\n".
        for rawLine in dump.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            var scalars = rawLine
            if scalars.last == "\r" { scalars = scalars.dropLast() }
            let line = String(String.UnicodeScalarView(scalars))
            if line.hasPrefix("HTTP/") {
                let pieces = line.split(separator: " ")
                status = pieces.count > 1 ? Int(pieces[1]) ?? 0 : 0
                headers = []
            } else if let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers.append(HeaderField(name: String(line[..<colon]), value: value))
            }
        }
        return (status, headers)
    }

    // MARK: - Reading the response

    /// The first header named `name` (case-insensitive).
    func header(_ name: String) -> String? { values(name).first }

    /// Every value of header `name`, in order.
    func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) as? [String: Any]
        else { throw NotJSONObject(text: text) }
        return object
    }

    struct NotJSONObject: Error, CustomStringConvertible {
        var text: String
        var description: String { "response body is not a JSON object: \(text.prefix(500))" }
    }
}
