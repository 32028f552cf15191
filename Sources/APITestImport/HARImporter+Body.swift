import APITestSuiteWriting
import APITestSupport
import Foundation

extension HARImporter {
    // MARK: - Bodies

    /// What an entry's recorded body becomes: text for `body` (escaped, ``TemplateLiteral``), or bytes that are not
    /// text, which a suite can send only from a file.
    enum RecordedBody: Equatable {
        /// Text sent as UTF-8, as recorded.
        case text(String)
        /// Bytes that UTF-8 text would change.
        case bytes([UInt8])
        /// `encoding: base64` whose text is not base64.
        case invalidBase64
    }

    /// The bytes `postData` stands for. A HAR holds a body as text, so recorders write a binary one either in base64
    /// (`encoding: base64`) or one code point per byte (mitmproxy: `\x89` as U+0089), which sent as UTF-8 would be
    /// `C2 89`: a text whose every code point is at most U+00FF is read as bytes when it holds a C1 control
    /// (U+0080–U+009F, which no text holds) or when its media type is not text and it holds a code point past ASCII.
    /// Bytes that are UTF-8 text without control characters (other than line breaks and tabs) are written as that
    /// text, which sends the same bytes (`E2 82 AC` recorded as `â\u{82}¬` is `€`).
    static func recordedBody(_ body: HARPostData, text: String) -> RecordedBody {
        let bytes: [UInt8]
        if body.encoding?.lowercased() == "base64" {
            guard let data = Data(base64Encoded: text.filter { !$0.isWhitespace }) else { return .invalidBase64 }
            bytes = [UInt8](data)
        } else {
            let scalars = text.unicodeScalars
            guard scalars.allSatisfy({ $0.value <= 0xFF }), scalars.contains(where: { $0.value >= 0x80 }) else {
                return .text(text)
            }
            let hasC1 = scalars.contains { (0x80...0x9F).contains($0.value) }
            guard hasC1 || !isTextual(body.mimeType) else { return .text(text) }
            bytes = scalars.map { UInt8($0.value) }
        }
        if let decoded = String(validating: bytes, as: UTF8.self),
            !decoded.unicodeScalars.contains(where: {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
            })
        {
            return .text(decoded)
        }
        return .bytes(bytes)
    }

    /// Whether a media type names text (`text/*`, JSON, XML, forms, JavaScript, GraphQL).
    static func isTextual(_ mimeType: String) -> Bool {
        let type = mimeType.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type, !type.isEmpty else { return true }
        return type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
            || type.contains("x-www-form-urlencoded") || type.contains("javascript") || type.contains("graphql")
    }

    /// The request body of entry `number` from `body`'s text: `body` for text, `bodyFile` for bytes when
    /// ``bodyFolder`` is set (the file added to `files`), else nothing and a note.
    func body(
        _ body: HARPostData, text: String, number: Int, contentType: String?, files: inout [SuiteDocument.File],
        notes: inout [SuiteDocument.Note]
    ) -> SuiteDocument.Body? {
        switch Self.recordedBody(body, text: text) {
        case .text(let text):
            return .text(TemplateLiteral.escaped(text), contentType: contentType)
        case .invalidBase64:
            notes.append(
                SuiteDocument.Note(
                    location: "entry \(number)",
                    text: "the body is marked base64 but is not base64: the request is sent without it"))
            return nil
        case .bytes(let bytes):
            guard let bodyFolder else {
                notes.append(
                    SuiteDocument.Note(
                        location: "entry \(number)",
                        text:
                            "the body is \(bytes.count) bytes that are not text (\(body.mimeType.isEmpty ? "no media type" : body.mimeType)), "
                            + "which a suite sends only from a file: the request is sent without it (import with -o "
                            + "to have it written beside the suite)"))
                return nil
            }
            let path = (bodyFolder.isEmpty ? "" : bodyFolder + "/") + "entry-\(number).bin"
            files.append(SuiteDocument.File(path: path, bytes: bytes))
            return .file(path: path, contentType: contentType)
        }
    }

    /// The parts of a multipart body recorded as `params`: a field's `value`, a file's recorded content as `data`
    /// with its `fileName` (a recorder that left the content out gives an empty part, noted).
    func multipartParts(
        _ params: [(name: String, value: String, fileName: String?)], number: Int, notes: inout [SuiteDocument.Note]
    ) -> [SuiteDocument.Part] {
        params.map { param in
            guard let fileName = param.fileName else {
                return SuiteDocument.Part(name: param.name, content: .value(TemplateLiteral.escaped(param.value)))
            }
            if param.value.isEmpty {
                notes.append(
                    SuiteDocument.Note(
                        location: "entry \(number)",
                        text: "the file \(fileName.shownInMessage) of part \(param.name.shownInMessage) was recorded "
                            + "without its content: the part is sent empty"))
            }
            return SuiteDocument.Part(
                name: param.name, content: .data(TemplateLiteral.escaped(param.value)), filename: fileName)
        }
    }
}
