import APITestSecrets
import Foundation
import Testing

@testable import APITestRunner

/// The exchange recorder's body previews mask before they cut (moved from `SecretMaskerTests` with the masker's move
/// to `APITestSecrets`: the preview is the runner's).
@Suite struct ExchangePreviewMaskingTests {
    @Test func bodiesAreMaskedBeforeTheyAreCut() {
        let masker = SecretMasker(secrets: ["s3cr3t-value"])
        let body = Data((String(repeating: "a", count: 95) + "s3cr3t-value" + String(repeating: "b", count: 50)).utf8)
        let preview = ExchangeRecorder.preview(body, limit: 100, masker: masker)
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
            let preview = ExchangeRecorder.preview(Data(body.utf8), limit: limit, masker: masker)
            #expect(preview.contains("•••••"), "\(encoded.prefix(40))")
            // No part of the encoded secret is shown: what follows the filler is the mask.
            let shown = preview.dropFirst(limit - 30)
            #expect(shown.hasPrefix("•••••"), "\(shown.prefix(60))")
        }
    }
}
