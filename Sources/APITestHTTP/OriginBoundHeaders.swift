// MARK: - OriginBoundHeaders

/// The names of header fields a request sends only to the origin of its URL (scheme, host and port): on a redirect
/// to another origin they are left out, as libcurl leaves out `Authorization` and `Cookie`. The runner names the
/// fields whose values derive from secrets (`X-Api-Key: {{ env.TOK }}`); the HTTP layer adds the credential lines
/// of the request's own authentication (`x-amz-security-token`). Names compare case-insensitively.
public struct OriginBoundHeaders: Sendable, Hashable {
    /// The names, lower-cased.
    private var names: Set<String>

    /// A set of `names`.
    public init(_ names: some Sequence<String> = [String]()) {
        self.names = Set(names.map { $0.lowercased() })
    }

    /// Whether no field is bound to the origin.
    public var isEmpty: Bool { names.isEmpty }

    /// Binds the field `name` to the request's origin.
    public mutating func insert(_ name: String) {
        names.insert(name.lowercased())
    }

    /// Whether the field `name` is bound to the request's origin.
    public func contains(_ name: String) -> Bool {
        names.contains(name.lowercased())
    }

    /// The names, lower-cased and sorted.
    public var sorted: [String] { names.sorted() }
}
