import APITestReporting
import APITestSupport
import ArgumentParser

/// The report files named on a command line, resolved with the checks every command makes of them (`run`,
/// `merge`, `load`).
enum ReportPaths {
    /// Where each of `requested` (a flag and the path given to it, in order) goes (``ReportDestination``), in the
    /// same order; throws the usage error for an empty name, a path that cannot be written (a missing folder, a
    /// folder, a read-only file, a socket) and two reports that name the same file, after symbolic links are
    /// followed.
    static func destinations(_ requested: [(flag: String, path: String)]) throws -> [ReportDestination] {
        var result: [ReportDestination] = []
        var flags: [ReportDestination.Identity: (flag: String, path: String)] = [:]
        for (flag, path) in requested {
            guard !path.isEmpty else { throw ValidationError("\(flag): a report file name cannot be empty") }
            let destination: ReportDestination
            do {
                destination = try ReportDestination.resolve(path)
            } catch {
                throw ValidationError("\(flag) '\(path)': \(error.reason)")
            }
            if let earlier = flags[destination.identity] {
                let resolved = [earlier.path, path].contains(destination.target) ? "" : " (\(destination.target))"
                throw ValidationError(
                    "two reports cannot be written to the same file: \(earlier.flag) '\(earlier.path)' and "
                        + "\(flag) '\(path)'\(resolved)")
            }
            flags[destination.identity] = (flag, path)
            result.append(destination)
        }
        return result
    }
}
