import APITestSupport

extension SuiteParser {
    static let requestKeys = [
        "method", "url", "query", "headers", "basicAuth", "json", "form", "body", "bodyFile", "multipart", "plist",
        "xml", "contentType", "plistFormat", "timeout", "followRedirects", "maxRedirects",
    ]
    static let bodyKeys = ["json", "form", "body", "bodyFile", "multipart", "plist", "xml"]
    static let basicAuthKeys = ["username", "password"]

    // MARK: - Request

    /// A request; `nil` when it has no usable URL (errors are reported).
    func parseRequest(_ node: YAMLNode, hasBaseURL: Bool) -> RequestSpec? {
        guard let entries = mapping(node, for: "request") else { return nil }
        checkKeys(entries, allowed: Self.requestKeys, in: "request")
        let requestLocation = location(of: node)
        var method = "GET"
        var url: Template?
        var spec = RequestSpec(url: Template(literal: "", location: requestLocation), location: requestLocation)
        var bodyEntry: MapEntry?
        var contentTypeEntry: MapEntry?
        var plistFormatEntry: MapEntry?

        for entry in entries {
            switch entry.key {
            case "method":
                if let text = text(entry.value, for: "method") {
                    if Self.isToken(text) {
                        method = text.uppercased()
                    } else {
                        error("invalid HTTP method '\(text)'", at: entry.value)
                    }
                }
            case "url":
                url = template(entry.value, for: "url")
                if let url {
                    context.urlChecks.append(SuiteParseContext.URLCheck(template: url, length: length(of: entry.value)))
                }
            case "query":
                if isMapping(entry.value) {
                    spec.query = templateValue(entry.value)
                } else {
                    typeError(expected: "a map", for: "query", found: entry.value)
                }
            case "headers":
                spec.headers = parseHeaders(entry.value)
            case "basicAuth":
                spec.basicAuth = parseBasicAuth(entry.value)
            case "json", "form", "body", "bodyFile", "multipart", "plist", "xml":
                if let first = bodyEntry {
                    error(
                        "a request takes one body; found both '\(first.key)' and '\(entry.key)'", at: entry.keyNode)
                    continue
                }
                bodyEntry = entry
                spec.body = parseBody(entry)
            case "contentType":
                contentTypeEntry = entry
                spec.contentType = template(entry.value, for: "contentType")
            case "plistFormat":
                plistFormatEntry = entry
            case "timeout":
                spec.timeout = duration(entry.value, for: "timeout")
            case "followRedirects":
                spec.followRedirects = bool(entry.value, for: "followRedirects")
            case "maxRedirects":
                spec.maxRedirects = integer(entry.value, for: "maxRedirects", in: 0...1000)
            default:
                break
            }
        }
        if let contentTypeEntry, bodyEntry.map({ ["body", "bodyFile"].contains($0.key) }) != true {
            let detail = bodyEntry.map { "not with '\($0.key)', which sets its own" } ?? "and this request has neither"
            error("'contentType' applies to 'body' or 'bodyFile', \(detail)", at: contentTypeEntry.keyNode)
        }
        if let plistFormatEntry {
            if bodyEntry?.key != "plist" {
                error("'plistFormat' applies to a 'plist' body", at: plistFormatEntry.keyNode)
            } else if let format = plistFormat(plistFormatEntry.value), case .plist(let value, _) = spec.body {
                spec.body = .plist(value, format: format)
            }
        }
        guard let url else {
            if !entries.contains(where: { $0.key == "url" }) { error("request needs a 'url'", at: requestLocation) }
            return nil
        }
        spec.method = method
        spec.url = url
        return spec
    }

    // MARK: - Headers and credentials

    /// Header names and value templates, in document order.
    func parseHeaders(_ node: YAMLNode) -> [HeaderSpec] {
        guard let entries = mapping(node, for: "headers") else { return [] }
        var headers: [HeaderSpec] = []
        for entry in entries {
            guard checkHeaderName(entry.key, at: entry.keyNode), let value = template(entry.value, for: entry.key)
            else { continue }
            if value.source.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }),
                value.source.contains(where: { $0 == "\n" || $0 == "\r" })
            {
                error("the value of header '\(entry.key)' cannot contain a line break", at: entry.value)
                continue
            }
            headers.append(HeaderSpec(name: entry.key, value: value, location: location(of: entry.keyNode)))
        }
        return headers
    }

    private func parseBasicAuth(_ node: YAMLNode) -> BasicAuthSpec? {
        guard let entries = mapping(node, for: "basicAuth") else { return nil }
        checkKeys(entries, allowed: Self.basicAuthKeys, in: "basicAuth")
        var missing = false
        for key in Self.basicAuthKeys where entries[key: key] == nil {
            error("'basicAuth' needs a '\(key)'", at: location(of: node))
            missing = true
        }
        guard !missing, let username = entries[key: "username"].flatMap({ template($0.value, for: "username") }),
            let password = entries[key: "password"].flatMap({ template($0.value, for: "password") })
        else { return nil }
        return BasicAuthSpec(username: username, password: password)
    }

    // MARK: - Bodies

    private func parseBody(_ entry: MapEntry) -> BodySpec? {
        switch entry.key {
        case "json":
            return .json(templateValue(entry.value))
        case "form":
            guard isMapping(entry.value) else {
                typeError(expected: "a map", for: "form", found: entry.value)
                return nil
            }
            return .form(templateValue(entry.value))
        case "body":
            return template(entry.value, for: "body").map(BodySpec.raw)
        case "multipart":
            return parseMultipart(entry.value).map(BodySpec.multipart)
        case "plist":
            return parsePlist(entry.value)
        case "xml":
            return parseXML(entry.value)
        default:
            guard let path = text(entry.value, for: "bodyFile"),
                let absolute = checkBodyFile(path, at: entry.value)
            else { return nil }
            return .file(absolutePath: absolute)
        }
    }
}
