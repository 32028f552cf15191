/// What a suite takes from the files it includes, then from itself: variables, base URL, defaults, security, the
/// OpenAPI contract, setup and teardown.
struct SharedSettings {
    var variables: [Suite.Variable] = []
    var baseURL: Template?
    var defaults: RequestDefaults?
    /// Whether `defaults` sets `followRedirects` (its default, true, must not replace an included false).
    var setsFollowRedirects = false
    var security: SuiteSecurity?
    var openapi: OpenAPISetting?
    var setup: [Step] = []
    var teardown: [Step] = []

    /// Adds later settings: variables of the same name and set values replace earlier ones; default headers
    /// merge by name; setup steps run after earlier ones and teardown steps before them.
    mutating func add(_ later: SharedSettings) {
        // A variable given again takes the place of the first, so the variables after it (which may use it)
        // still come after it; new ones follow.
        var indexByName: [String: Int] = [:]
        for (index, variable) in variables.enumerated() { indexByName[variable.name] = index }
        for variable in later.variables {
            if let index = indexByName[variable.name] {
                variables[index] = variable
            } else {
                indexByName[variable.name] = variables.count
                variables.append(variable)
            }
        }
        baseURL = later.baseURL ?? baseURL
        if let next = later.defaults {
            var merged = defaults ?? RequestDefaults()
            let names = Set(next.headers.map { $0.name.lowercased() })
            merged.headers = merged.headers.filter { !names.contains($0.name.lowercased()) } + next.headers
            merged.timeout = next.timeout ?? merged.timeout
            merged.maxRedirects = next.maxRedirects ?? merged.maxRedirects
            merged.retry = next.retry ?? merged.retry
            merged.maxResponseSize = next.maxResponseSize ?? merged.maxResponseSize
            merged.compressed = next.compressed ?? merged.compressed
            merged.auth = next.auth ?? merged.auth
            merged.transport = next.transport.map { $0.over(merged.transport) } ?? merged.transport
            if later.setsFollowRedirects { merged.followRedirects = next.followRedirects }
            defaults = merged
            setsFollowRedirects = setsFollowRedirects || later.setsFollowRedirects
        }
        security = later.security ?? security
        openapi = later.openapi ?? openapi
        setup += later.setup
        teardown = later.teardown + teardown
    }
}
