import APITestSupport
import Foundation

// MARK: - The sealing point

extension StepDraft {
    /// The longest failure or warning message reports show, in characters.
    package static let messageLimit = 800
    /// The longest expected or actual value of a failure reports show, in characters.
    package static let valueLimit = 1000
    /// The longest expected value of a check that held reports show, in characters.
    package static let checkLimit = 300

    /// The step's result: every text of the draft masked by `sealer`, then the long ones cut (masking first, so a
    /// secret straddling a cut is not shown in part). The one place that makes a ``StepResult`` from what a step
    /// produced.
    ///
    /// Left as they are: names written in the suite (`captured`, a template error's `undefinedVariable`), the
    /// exchange's method, HTTP version and remote address, and the reproduce commands, whose writer replaces every
    /// secret with a reference to the variable it came from (masking the command's words would break those
    /// references, and a command holds no other text of the step).
    package func sealed(by sealer: some SecretSealing) -> StepResult {
        // Made whole by one initializer: a result made and then filled in field by field was copied and destroyed
        // on its way out (a large struct, for every step).
        StepResult(
            index: index, location: location, exchange: exchange.map { $0.sealed(by: sealer) },
            failures: failures.map { Self.sealed($0, by: sealer) },
            warnings: warnings.isEmpty ? [] : warnings.map { Self.sealed($0, by: sealer) },
            checks: checks.map { check in
                var sealed = check
                sealed.subject = sealer.mask(check.subject)
                sealed.expected = sealer.mask(check.expected).truncated(to: Self.checkLimit)
                return sealed
            },
            error: error.map { $0.sealed(by: sealer) }, captured: captured, attempts: attempts, reproduce: reproduce,
            earlierAttempts: earlierAttempts, label: label.map { $0.rendered(masking: sealer.mask) },
            skipped: skipped.map(sealer.mask),
            tokenExchanges: tokenExchanges.isEmpty ? nil : tokenExchanges.map { $0.sealed(by: sealer) },
            trace: trace,
            earlierExchanges: earlierExchanges.isEmpty ? nil : earlierExchanges.map { $0.masked(by: sealer) })
    }

    /// `failure` masked, its message and values cut.
    private static func sealed(_ failure: AssertionFailure, by sealer: some SecretSealing) -> AssertionFailure {
        var sealed = failure
        sealed.subject = sealer.mask(failure.subject)
        sealed.message = failure.text.rendered(masking: sealer.mask).truncated(to: messageLimit)
        sealed.expected = failure.expected.map { sealer.mask($0).truncated(to: valueLimit) }
        sealed.actual = failure.actual.map { sealer.mask($0).truncated(to: valueLimit) }
        return sealed
    }

}

extension TestError {
    /// This error with its message masked by `sealer`, each value it quotes masked whole and then cut.
    package func sealed(by sealer: some SecretSealing) -> TestError {
        var sealed = self
        sealed.message = text.rendered(masking: sealer.mask)
        return sealed
    }
}

extension ExchangeDraft {
    /// The exchange as reports show it: URLs and header values masked, body previews masked and then cut.
    package func sealed(by sealer: some SecretSealing) -> Exchange {
        var exchange = Exchange(
            method: method, url: sealer.mask(url),
            requestHeaders: requestHeaders.map { Self.sealed($0, by: sealer) },
            requestBody: requestBody.map { Self.preview($0, limit: bodyPreviewLimit, by: sealer) },
            requestBodySize: requestBodySize, statusCode: statusCode, httpVersion: httpVersion,
            responseHeaders: responseHeaders.map { Self.sealed($0, by: sealer) },
            responseBody: responseBody.map { Self.preview($0, limit: bodyPreviewLimit, by: sealer) },
            responseBodySize: responseBodySize, effectiveURL: effectiveURL.map(sealer.mask),
            remoteAddress: remoteAddress, redirectCount: redirectCount, timings: timings)
        exchange.sentRequestHeaders = sentRequestHeaders?.map { Self.sealed($0, by: sealer) }
        exchange.startedAt = startedAt
        exchange.reasonPhrase = reasonPhrase.map(sealer.mask)
        exchange.localPort = localPort
        exchange.responseBodyBase64 = responseBinary.map { Self.binaryPreview($0, limit: bodyPreviewLimit, by: sealer) }
        exchange.requestParts = requestParts?.map { part in
            Exchange.FormPart(
                name: sealer.mask(part.name), fileName: part.fileName.map(sealer.mask),
                contentType: part.contentType.map(sealer.mask),
                value: part.value.map { sealer.mask($0).truncated(to: bodyPreviewLimit) })
        }
        exchange.requestBodyIsNote = requestBody.map(Self.isNote)
        exchange.responseBodyIsNote = responseBody.map(Self.isNote)
        if !redirectHops.isEmpty { exchange.redirectHops = redirectHops.map { $0.sealed(by: sealer) } }
        return exchange
    }

    private static func isNote(_ body: Body) -> Bool {
        if case .note = body { return true }
        return false
    }

    /// The start of a binary body, base64-encoded: its bytes read as Latin-1 (one character a byte, so that a
    /// secret's bytes read as text however they are encoded), masked as text, written back a byte a character (a
    /// mask's characters are ASCII), then cut at `limit` bytes.
    static func binaryPreview(_ bytes: Data, limit: Int, by sealer: some SecretSealing) -> String {
        let latin1 = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        let masked = sealer.mask(latin1)
        var out: [UInt8] = []
        out.reserveCapacity(min(limit, masked.unicodeScalars.count))
        for scalar in masked.unicodeScalars {
            guard out.count < limit else { break }
            if scalar.value < 0x100 {
                out.append(UInt8(scalar.value))
            } else {
                out.append(contentsOf: String(scalar).utf8.prefix(limit - out.count))
            }
        }
        return Data(out).base64EncodedString()
    }

    private static func sealed(_ header: Exchange.Header, by sealer: some SecretSealing) -> Exchange.Header {
        Exchange.Header(name: header.name, value: sealer.maskHeader(name: header.name, value: header.value))
    }

    /// The preview of `body`: masked, then cut at about `limit` bytes and saying the body's size when it was cut
    /// or read only in part.
    static func preview(_ body: Body, limit: Int, by sealer: some SecretSealing) -> String {
        switch body {
        case .note(let note):
            return sealer.mask(note)
        case .text(let text, let readBytes, let totalSize):
            var masked = sealer.mask(text)
            guard readBytes < totalSize || masked.utf8.count > limit else { return masked }
            if masked.utf8.count > limit {
                masked = String(decoding: masked.utf8.prefix(limit), as: UTF8.self)
                while masked.last == "\u{FFFD}" { masked.removeLast() }
            }
            return masked + "… (\(totalSize) bytes in all)"
        }
    }
}

extension Exchange {
    /// This exchange, sealed already (an earlier attempt's, by that attempt's masker), masked again by `sealer`
    /// (the step's): every text that sealing masks, the base64 body decoded, masked and encoded again.
    func masked(by sealer: some SecretSealing) -> Exchange {
        func header(_ field: Header) -> Header {
            Header(name: field.name, value: sealer.maskHeader(name: field.name, value: field.value))
        }
        var exchange = self
        exchange.url = sealer.mask(url)
        exchange.requestHeaders = requestHeaders.map(header)
        exchange.sentRequestHeaders = sentRequestHeaders?.map(header)
        exchange.requestBody = requestBody.map(sealer.mask)
        exchange.responseHeaders = responseHeaders.map(header)
        exchange.responseBody = responseBody.map(sealer.mask)
        exchange.effectiveURL = effectiveURL.map(sealer.mask)
        exchange.reasonPhrase = reasonPhrase.map(sealer.mask)
        exchange.requestParts = requestParts?.map { part in
            FormPart(
                name: sealer.mask(part.name), fileName: part.fileName.map(sealer.mask),
                contentType: part.contentType.map(sealer.mask), value: part.value.map(sealer.mask))
        }
        exchange.responseBodyBase64 = responseBodyBase64.map { base64 in
            guard let bytes = Data(base64Encoded: base64) else { return "" }
            return ExchangeDraft.binaryPreview(bytes, limit: Int.max, by: sealer)
        }
        exchange.redirectHops = redirectHops?.map { $0.masked(by: sealer) }
        return exchange
    }
}
