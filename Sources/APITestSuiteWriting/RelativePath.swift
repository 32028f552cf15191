/// Relative paths between absolute, standardized paths.
package enum RelativePath {
    /// The path of `target` relative to the folder `directory`: `../api/openapi.yaml` from `/work/suites` to
    /// `/work/api/openapi.yaml`; the file's name when it is in the folder.
    package static func from(directory: String, to target: String) -> String {
        let base = directory.split(separator: "/").map(String.init)
        let goal = target.split(separator: "/").map(String.init)
        var common = 0
        while common < base.count, common < goal.count - 1, base[common] == goal[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        let parts = up + goal[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
