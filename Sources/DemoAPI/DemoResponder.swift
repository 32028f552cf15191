import Hummingbird
import NIOCore

// MARK: - DemoResponder

/// Routes every request through the route table, turning thrown `DemoError`s into JSON error responses, and
/// optionally logging one line per request to stderr.
struct DemoResponder: HTTPResponder {
    typealias Context = DemoContext

    let table: RouteTable
    let logRequests: Bool

    func respond(to request: Request, context: DemoContext) async throws -> Response {
        let started = ContinuousClock.now
        let target = request.head.path ?? "/"
        let (rawPath, rawQuery) = DemoResponder.split(target)
        let segments = rawPath.split(separator: "/").map { FormEncoding.percentDecode($0) }
        let method = request.method.rawValue
        var response: Response
        switch table.lookup(method: method, path: segments) {
        case .notFound:
            response = Reply.error(.notFound, "not found", extra: [("path", .string(rawPath))])
        case .methodNotAllowed(let allowed):
            var headers = HTTPFields()
            headers[.allow] = allowed.joined(separator: ", ")
            response = Reply.json(
                ["error": "method not allowed", "method": .string(method), "path": .string(rawPath)],
                status: .methodNotAllowed, headers: headers
            )
        case .found(let route, let parameters):
            let demoRequest = DemoRequest(
                request: request, context: context, parameters: parameters, rawPath: rawPath, rawQuery: rawQuery
            )
            do {
                response = try await route.handler(demoRequest)
            } catch let error as DemoError {
                response = Reply.error(error.status, error.message)
            } catch let error as DemoRequest.BodyTooLarge {
                response = Reply.error(.contentTooLarge, "request body larger than \(error.limit) bytes")
            } catch is CancellationError {
                response = Reply.error(.serviceUnavailable, "server is shutting down")
            } catch {
                response = Reply.error(.internalServerError, "\(error)")
            }
        }
        if request.method == .head { response = response.createHeadResponse() }
        if logRequests {
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            let client = context.remoteAddress?.ipAddress ?? "-"
            DemoApplication.writeAll(
                fd: 2,
                "\(client) \(method) \(target) \(response.status.code) \(String(format3: milliseconds))ms\n"
            )
        }
        return response
    }

    /// Splits a request target into path and query (without the `?`).
    static func split(_ target: String) -> (String, String) {
        guard let question = target.firstIndex(of: "?") else { return (target, "") }
        return (String(target[..<question]), String(target[target.index(after: question)...]))
    }
}

extension String {
    /// A number with three decimals, without Foundation.
    init(format3 value: Double) {
        let thousandths = Int((value * 1000).rounded())
        let whole = thousandths / 1000
        let fraction = thousandths % 1000
        let padded = String(fraction)
        self = "\(whole)." + String(repeating: "0", count: 3 - padded.count) + padded
    }
}
