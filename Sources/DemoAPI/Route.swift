import Hummingbird

// MARK: - Route

/// One endpoint: allowed methods, a path pattern and its handler.
///
/// Patterns are `/`-separated segments: literals, `{name}` parameters (one segment, percent-decoded) and a final
/// `**` matching zero or more further segments.
struct Route: Sendable {
    typealias Handler = @Sendable (DemoRequest) async throws -> Response

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case rest
    }

    /// Methods served; `nil` means any method.
    let methods: Set<String>?
    let segments: [Segment]
    let handler: Handler

    init(_ methods: Set<String>?, _ pattern: String, _ handler: @escaping Handler) {
        self.methods = methods
        self.segments = pattern.split(separator: "/").map { piece in
            if piece == "**" { return .rest }
            if piece.hasPrefix("{") && piece.hasSuffix("}") { return .parameter(String(piece.dropFirst().dropLast())) }
            return .literal(String(piece))
        }
        self.handler = handler
    }

    /// The parameters when `path` (decoded segments) matches this pattern.
    func match(_ path: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest:
                return parameters
            case .literal(let text):
                guard index < path.count, path[index] == text else { return nil }
            case .parameter(let name):
                guard index < path.count, !path[index].isEmpty else { return nil }
                parameters[name] = path[index]
            }
        }
        return path.count == segments.count ? parameters : nil
    }

    func allows(_ method: String) -> Bool { methods?.contains(method) ?? true }
}

// MARK: - RouteTable

/// Finds the route for a request, telling "no such path" (404) from "path exists, not with this method" (405).
struct RouteTable: Sendable {
    enum Outcome {
        case found(Route, [String: String])
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    let routes: [Route]

    /// Matches `method` and the decoded path segments; `HEAD` falls back to a `GET` route.
    func lookup(method: String, path: [String]) -> Outcome {
        var allowed: [String] = []
        var getFallback: (Route, [String: String])?
        for route in routes {
            guard let parameters = route.match(path) else { continue }
            if route.allows(method) { return .found(route, parameters) }
            if method == "HEAD", route.allows("GET"), getFallback == nil { getFallback = (route, parameters) }
            allowed.append(contentsOf: route.methods ?? [])
        }
        if let getFallback { return .found(getFallback.0, getFallback.1) }
        if allowed.isEmpty { return .notFound }
        if allowed.contains("GET") { allowed.append("HEAD") }
        let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
        let sorted = Set(allowed).sorted { (order.firstIndex(of: $0) ?? 99, $0) < (order.firstIndex(of: $1) ?? 99, $1) }
        return .methodNotAllowed(allowed: sorted)
    }
}
