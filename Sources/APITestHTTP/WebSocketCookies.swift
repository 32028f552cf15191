public import Foundation

// MARK: - WebSocketCookies

/// The cookies of a WebSocket upgrade, which libcurl does not send itself (apitest writes the upgrade request):
/// the `Cookie` field from a jar's cookies (`CURLINFO_COOKIELIST` lines: domain, subdomains, path, secure, expiry,
/// name, value) matched as RFC 6265 section 5.4 says, and the `Set-Cookie` fields of the answer as such lines, to
/// store in the jar (section 5.3: domain, path, `Secure`, `HttpOnly`, `Max-Age` before `Expires`).
public enum WebSocketCookies {
    /// The `Cookie` value for `url` (`ws://`, `wss://`, `http://` or `https://`) from the jar's `lines`: the
    /// cookies whose domain and path match and that have not expired (secure ones only over `wss`/`https`), longest
    /// path first; nil for none.
    public static func header(for url: String, lines: [String], now: Date = Date()) -> String? {
        guard let target = Target(url) else { return nil }
        var matched: [(path: String, pair: String)] = []
        for line in lines {
            guard let cookie = Cookie(line: line) else { continue }
            guard cookie.matches(target), cookie.expires == 0 || Double(cookie.expires) > now.timeIntervalSince1970
            else { continue }
            matched.append((cookie.path, "\(cookie.name)=\(cookie.value)"))
        }
        guard !matched.isEmpty else { return nil }
        // Longer paths first (section 5.4, step 2); the sort is stable for the rest.
        let sorted = matched.enumerated().sorted {
            $0.element.path.count != $1.element.path.count
                ? $0.element.path.count > $1.element.path.count : $0.offset < $1.offset
        }
        return sorted.map(\.element.pair).joined(separator: "; ")
    }

    /// The cookies `headers` set for `url`, as `CURLINFO_COOKIELIST` lines; a cookie whose `Domain` does not match
    /// the host is ignored (section 5.3, step 6), one that has expired is written expired (which removes it).
    public static func lines(setBy headers: HTTPHeaders, for url: String, now: Date = Date()) -> [String] {
        guard let target = Target(url) else { return [] }
        return headers.setCookies.compactMap { setCookie in
            var domain = target.host
            var subdomains = false
            if let written = setCookie.attribute("Domain")?.lowercased(), !written.isEmpty {
                let bare = written.hasPrefix(".") ? String(written.dropFirst()) : written
                guard target.host == bare || target.host.hasSuffix("." + bare) else { return nil }
                domain = "." + bare
                subdomains = true
            }
            var path = setCookie.attribute("Path") ?? ""
            if !path.hasPrefix("/") { path = defaultPath(of: target.path) }
            var expires: Int64 = 0
            if let maxAge = setCookie.attribute("Max-Age").flatMap({ Int64($0) }) {
                expires = maxAge <= 0 ? 1 : Int64(now.timeIntervalSince1970) + maxAge
            } else if let date = setCookie.attribute("Expires").flatMap(parseDate) {
                expires = max(1, Int64(date.timeIntervalSince1970))
            }
            let secure = setCookie.attribute("Secure") != nil
            let prefix = setCookie.attribute("HttpOnly") != nil ? "#HttpOnly_" : ""
            // Tabs and line ends would break the line's fields: such a cookie is not stored.
            let fields = [setCookie.name, setCookie.value, domain, path]
            guard !fields.contains(where: { $0.contains(where: { "\t\r\n".contains($0) }) }) else { return nil }
            return [
                prefix + domain, subdomains ? "TRUE" : "FALSE", path, secure ? "TRUE" : "FALSE", String(expires),
                setCookie.name, setCookie.value,
            ].joined(separator: "\t")
        }
    }

    // MARK: - Matching

    /// The host (lower-cased), path and security of the URL a cookie is matched against.
    struct Target {
        var host: String
        var path: String
        var secure: Bool

        init?(_ url: String) {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                let host = components.host, !host.isEmpty
            else { return nil }
            self.host = host.lowercased()
            path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            secure = scheme == "wss" || scheme == "https"
        }
    }

    /// One `CURLINFO_COOKIELIST` line.
    struct Cookie {
        var domain: String
        var subdomains: Bool
        var path: String
        var secure: Bool
        var expires: Int64
        var name: String
        var value: String

        init?(line: String) {
            var text = Substring(line)
            if text.hasPrefix("#HttpOnly_") {
                text = text.dropFirst("#HttpOnly_".count)
            } else if text.hasPrefix("#") {
                return nil
            }
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7 else { return nil }
            domain = (fields[0].hasPrefix(".") ? String(fields[0].dropFirst()) : fields[0]).lowercased()
            subdomains = fields[1].uppercased() == "TRUE"
            path = fields[2].isEmpty ? "/" : fields[2]
            secure = fields[3].uppercased() == "TRUE"
            expires = Int64(fields[4]) ?? 0
            name = fields[5]
            value = fields[6...].joined(separator: "\t")
        }

        /// Domain-match, path-match (section 5.1.4) and `Secure`.
        func matches(_ target: Target) -> Bool {
            let domainMatches =
                target.host == domain || (subdomains && target.host.hasSuffix("." + domain))
            guard domainMatches, !secure || target.secure else { return false }
            if target.path == path { return true }
            guard target.path.hasPrefix(path) else { return false }
            return path.hasSuffix("/") || target.path.dropFirst(path.count).hasPrefix("/")
        }
    }

    /// The default path of a request path (section 5.1.4): up to its last `/`, `/` when that is the first.
    static func defaultPath(of path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// An `Expires` date in the forms servers send (RFC 1123, RFC 850, asctime).
    static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
            "EEE, dd-MMM-yyyy HH:mm:ss zzz",
        ] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
