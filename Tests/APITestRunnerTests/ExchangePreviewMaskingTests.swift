import APITestResults
import APITestSecrets
import APITestSupport
import Foundation
import Testing

@testable import APITestRunner

/// The exchange recorder's body previews mask before they cut (moved from `SecretMaskerTests` with the masker's move
/// to `APITestSecrets`: the preview is the runner's): the recorder reads past the limit, sealing masks and cuts.
@Suite struct ExchangePreviewMaskingTests {
    /// The response body preview of `data` as a report shows it: recorded, then sealed by `masker`.
    func preview(_ data: Data, limit: Int, masker: SecretMasker) -> String {
        var exchange = ExchangeDraft(method: "GET", url: "http://h.test/", bodyPreviewLimit: limit)
        exchange.responseBody = ExchangeRecorder.preview(
            data, readBytes: ExchangeRecorder.previewBytes(limit: limit, masker: masker))
        let draft = StepDraft(
            index: 0, location: SourceLocation(file: "s.yaml", line: 1, column: 1), exchange: exchange)
        return draft.sealed(by: masker).exchange?.responseBody ?? ""
    }

    @Test func bodiesAreMaskedBeforeTheyAreCut() {
        let masker = SecretMasker(secrets: ["s3cr3t-value"])
        let body = Data((String(repeating: "a", count: 95) + "s3cr3t-value" + String(repeating: "b", count: 50)).utf8)
        let preview = preview(body, limit: 100, masker: masker)
        #expect(!preview.contains("s3cr"))
        #expect(preview.hasSuffix("… (157 bytes in all)"))
    }

    @Test func aSecretStraddlingAPreviewsCutIsMaskedInEveryEncodingTheMaskerReads() {
        let secret = "TokAlpha9f8e7d6c"
        let masker = SecretMasker(secrets: [secret])
        let limit = 1000
        // Zero-padded character references (10 bytes a character), escaped once more as `&amp;` (14), and a
        // percent-encoding of JSON escapes of them: each placed so that the cut falls inside the secret.
        let forms: [String] = [
            secret.unicodeScalars.map { String(format: "&#x%06x;", $0.value) }.joined(),
            secret.unicodeScalars.map { String(format: "&amp;#x%06x;", $0.value) }.joined(),
            secret.unicodeScalars.map { String(format: "%%5Cu%04x", $0.value) }.joined(),
        ]
        for encoded in forms {
            let body = String(repeating: "x", count: limit - 30) + encoded + String(repeating: "y", count: 2000)
            let preview = preview(Data(body.utf8), limit: limit, masker: masker)
            #expect(preview.contains("•••••"), "\(encoded.prefix(40))")
            // No part of the encoded secret is shown: what follows the filler is the mask.
            let shown = preview.dropFirst(limit - 30)
            #expect(shown.hasPrefix("•••••"), "\(shown.prefix(60))")
        }
    }
}
