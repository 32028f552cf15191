import APITestHTTP
import APITestResults
import APITestSecrets
import Foundation

/// Turns a request and its response into the `ExchangeDraft` of a step: what was sent and received as it was, body
/// previews read a little past their limit. Sealing (`StepDraft.sealed(by:)`) masks it and cuts the previews.
enum ExchangeRecorder {
    /// The exchange as much of it as `detail` asks for: none for `.failures`, the request line, status, HTTP version
    /// timings and body sizes for `.requestLines`, everything for `.everyStep`. `masker` sets how far past `limit` a
    /// preview reads (``previewBytes(limit:masker:)``).
    static func record(
        _ request: HTTPRequest, _ response: HTTPResponse, limit: Int, masker: SecretMasker, detail: ResultDetail,
        keepsBinary: Bool = false
    ) -> ExchangeDraft? {
        switch detail {
        case .failures:
            return nil
        case .requestLines:
            var exchange = ExchangeDraft(method: request.method, url: request.url, bodyPreviewLimit: limit)
            exchange.statusCode = response.statusCode
            exchange.httpVersion = response.httpVersion
            exchange.timings = timings(of: response)
            exchange.responseBodySize = Int(response.bodySize)
            exchange.requestBodySize = requestBodySize(request, response)
            return exchange
        case .everyStep:
            return record(request, response, limit: limit, masker: masker, keepsBinary: keepsBinary)
        }
    }

    /// The whole exchange: headers, body previews, timings; with `keepsBinary`, the first bytes of a response body
    /// that is no text (for the HAR report).
    static func record(
        _ request: HTTPRequest, _ response: HTTPResponse?, limit: Int, masker: SecretMasker, keepsBinary: Bool = false
    ) -> ExchangeDraft {
        let readBytes = previewBytes(limit: limit, masker: masker)
        var exchange = ExchangeDraft(
            method: request.method, url: request.url,
            requestHeaders: request.headers.map { Exchange.Header(name: $0.name, value: $0.value) },
            bodyPreviewLimit: limit)
        switch request.body {
        case .none: break
        case .data(let data): exchange.requestBody = preview(data, readBytes: readBytes)
        case .file(let path): exchange.requestBody = .note("<file \(path)>")
        case .multipart(let form):
            exchange.requestBody = .note(form.summary)
            if keepsBinary { exchange.requestParts = parts(of: form, limit: limit) }
        }
        exchange.requestBodySize = requestBodySize(request, response)
        guard let response else { return exchange }
        exchange.sentRequestHeaders = response.sentHeaders?.map { Exchange.Header(name: $0.name, value: $0.value) }
        exchange.statusCode = response.statusCode
        exchange.httpVersion = response.httpVersion
        exchange.responseHeaders = response.headers.map { Exchange.Header(name: $0.name, value: $0.value) }
        exchange.responseBody = preview(response.body, readBytes: readBytes, totalSize: Int(response.bodySize))
        exchange.responseBodySize = Int(response.bodySize)
        exchange.effectiveURL = response.effectiveURL
        exchange.remoteAddress = response.remoteAddress
        exchange.redirectCount = response.redirectCount
        exchange.timings = timings(of: response)
        exchange.reasonPhrase = response.reasonPhrase
        exchange.localPort = response.localPort > 0 ? response.localPort : nil
        if keepsBinary, case .note = exchange.responseBody, !response.body.isEmpty {
            exchange.responseBinary = response.body.prefix(readBytes)
        }
        exchange.redirectHops = response.redirectHops.map { hop in
            record(hop.request, hop.response, limit: limit, masker: masker, keepsBinary: keepsBinary)
        }
        return exchange
    }

    /// The parts of `form` as the HAR report lists them: each part's name, file name and media type, and its
    /// content when it is UTF-8 text (HAR's `value` is a field's value or a file's content); a file on disk is read
    /// for it when it is at most `limit` bytes.
    static func parts(of form: MultipartFormData, limit: Int) -> [Exchange.FormPart] {
        form.parts.map { part in
            var value: String?
            var fileName = part.filename
            switch part.content {
            case .data(let data):
                value = String(validating: data, as: UTF8.self)
            case .file(let path):
                fileName = fileName ?? URL(fileURLWithPath: path).lastPathComponent
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? Int.max
                if size <= limit, let data = FileManager.default.contents(atPath: path) {
                    value = String(validating: data, as: UTF8.self)
                }
            }
            return Exchange.FormPart(name: part.name, fileName: fileName, contentType: part.contentType, value: value)
        }
    }

    /// The bytes of `request`'s body: a body in memory's size; for a file or multipart body (read as it is sent),
    /// what `response` counted uploaded, 0 without a response; 0 without a body.
    static func requestBodySize(_ request: HTTPRequest, _ response: HTTPResponse?) -> Int64 {
        switch request.body {
        case .none: 0
        case .data(let data): Int64(data.count)
        case .file, .multipart: response?.bytesUploaded ?? 0
        }
    }

    private static func timings(of response: HTTPResponse) -> Exchange.Timings {
        let t = response.timings
        return Exchange.Timings(
            nameLookup: t.nameLookup, connect: t.connect, tlsHandshake: t.tlsHandshake, firstByte: t.firstByte,
            total: t.total, preTransfer: t.preTransfer)
    }

    /// The first `readBytes` of the body as text when it is UTF-8, a note otherwise. `totalSize` is the size of the
    /// whole body when `data` holds only its first bytes (a body that was counted and hashed as it streamed, not
    /// kept).
    static func preview(_ data: Data, readBytes: Int, totalSize: Int? = nil) -> ExchangeDraft.Body {
        let total = max(totalSize ?? data.count, data.count)
        if data.isEmpty { return .note(total > 0 ? "<\(total) bytes, not kept>" : "") }
        let cut = data.prefix(readBytes)
        guard let text = String(validating: cut, as: UTF8.self) ?? validPrefix(cut) else {
            return .note("<\(total) bytes of binary data>")
        }
        return .text(text, readBytes: cut.count, totalSize: total)
    }

    /// How many bytes of a body a preview of `limit` bytes reads: more than it keeps, so that a secret straddling
    /// the cut is masked whole, in any encoding the masker undoes: up to ``SecretMasker/longestEncodedByte`` bytes
    /// for one of the secret's bytes. So that a long secret (a key file) does not make every preview huge, the
    /// margin stops at 256 KiB, but always covers one round of the longest escape (12 bytes a byte). A body that is
    /// not kept keeps this much.
    static func previewBytes(limit: Int, masker: SecretMasker) -> Int {
        let length = masker.longestSecretLength
        return limit + min(length * SecretMasker.longestEncodedByte, max(length * 12, previewMarginLimit))
    }

    /// The most a preview reads past its limit for secrets escaped more than once.
    static let previewMarginLimit = 256 << 10

    /// The longest valid UTF-8 text of `data` when only its last (cut) character is incomplete.
    private static func validPrefix(_ data: Data) -> String? {
        for drop in 1...3 where data.count > drop {
            if let text = String(validating: data.dropLast(drop), as: UTF8.self) { return text }
        }
        return nil
    }
}
