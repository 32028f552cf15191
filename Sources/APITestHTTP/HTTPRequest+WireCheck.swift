import APITestSupport

// MARK: - Fields that reach the wire as text

extension HTTPRequest {
    /// Checks every field that goes on the wire as text (the method, the URL, each header name and value, the
    /// `Accept-Encoding` list, and the names, filenames, content types and headers of multipart parts) for CR, LF
    /// and NUL, and header values for any other control character but the horizontal tab, whatever their source: a
    /// literal, a variable, a captured value or a file.
    ///
    /// A line break in a header value would let a server that planted it (in a value a test captured) add headers
    /// or smuggle a second request carrying the tester's credentials; so such a request is never sent.
    /// Multipart names and filenames have CR and LF percent-encoded when the form is encoded, so only NUL is
    /// refused there.
    ///
    /// - Throws: `HTTPError` with reason `.forbiddenCharacter` and `forbiddenCharacter` naming the field.
    public func checkWireFields() throws(HTTPError) {
        try Self.check(method, as: .method)
        try Self.check(url, as: .url)
        for field in headers {
            try Self.check(field.name, as: .headerName(field.name))
            try Self.check(field.value, as: .headerValue(name: field.name), isHeaderValue: true)
        }
        if let acceptEncoding { try Self.check(acceptEncoding, as: .acceptEncoding) }
        if case .multipart(let form) = body {
            for (index, part) in form.parts.enumerated() {
                try Self.check(part.name, as: .multipartName(index: index), allowingLineBreaks: true)
                if let filename = part.filename {
                    try Self.check(filename, as: .multipartFilename(part: part.name), allowingLineBreaks: true)
                }
                if let contentType = part.contentType {
                    try Self.check(contentType, as: .multipartContentType(part: part.name))
                }
                for field in part.headers {
                    try Self.check(field.name, as: .multipartHeaderName(part: part.name, name: field.name))
                    try Self.check(
                        field.value, as: .multipartHeaderValue(part: part.name, name: field.name), isHeaderValue: true)
                }
            }
        }
    }

    /// Throws when `text` holds CR, LF or NUL (only NUL when `allowingLineBreaks`), or, for a header value, any
    /// other control character but the horizontal tab.
    private static func check(
        _ text: String, as field: ForbiddenCharacter.Field, allowingLineBreaks: Bool = false,
        isHeaderValue: Bool = false
    ) throws(HTTPError) {
        let found = text.withUTF8Bytes { bytes -> ForbiddenCharacter.Character? in
            for byte in bytes where byte < 0x20 || byte == 0x7F {
                guard let character = ForbiddenCharacter.Character(byte: byte, inHeaderValue: isHeaderValue) else {
                    continue
                }
                if allowingLineBreaks, character != .nul { continue }
                return character
            }
            return nil
        }
        if let found { throw HTTPError(.forbiddenCharacter(ForbiddenCharacter(field: field, character: found))) }
    }
}
