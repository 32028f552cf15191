import APITestChecks
import APITestHTTP
import APITestJSON
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport

/// `expect.snapshot`: the body against its stored snapshot (``SnapshotStore``), both sides normalized alike
/// (``SnapshotNormalizer``); a missing snapshot is written (a failure in CI), `--update-snapshots` rewrites one that
/// differs. What was written is said as a warning of the step; the run counts the files.
extension StepChecking {
    /// The response's body as a snapshot compares it.
    enum SnapshotBody {
        case json(JSONValue)
        case text(String)
        /// A body that is not UTF-8 text, compared byte for byte.
        case bytes([UInt8])
    }

    /// Compares `response`'s body with `spec`'s snapshot into `outcome`: a difference is a failure, a file written
    /// a warning. Nothing is written for a step whose other checks failed.
    func checkSnapshot(
        _ spec: SnapshotSpec, _ response: HTTPResponse, masker: SecretMasker, into outcome: inout Outcome
    ) {
        let settings = executor.options.snapshots
        let store = SnapshotStore(suite: runtime.suite)
        let normalizer = SnapshotNormalizer(spec: spec, masker: masker)
        let body = Self.snapshotBody(response)
        let isJSON: Bool
        let written: [UInt8]
        let difference: MessageText?
        let stored = store.read(spec.name)
        switch body {
        case .json(let value):
            isJSON = true
            let actual = normalizer.normalized(value)
            written = Array((JSONWriter.string(actual, pretty: true, sortedKeys: true) + "\n").utf8)
            switch stored {
            case .json(let expected):
                difference = SnapshotComparison.difference(expected: normalizer.normalized(expected), actual: actual)
            case .text, .bytes:
                difference = "the snapshot is text (\(store.shownPath(of: spec.name, json: false))), the body is JSON"
            case .unusable(let reason): difference = "cannot be used: \(reason)"
            case .missing: difference = nil
            }
        case .text(let text):
            isJSON = false
            let actual = normalizer.normalized(text)
            written = Array(actual.utf8)
            difference = Self.difference(of: stored, text: actual, bytes: written, normalizer, store, spec)
        case .bytes(let bytes):
            isJSON = false
            written = normalizer.normalized(bytes: bytes)
            difference = Self.difference(of: stored, text: nil, bytes: written, normalizer, store, spec)
        }
        let subject = "snapshot '\(spec.name)'"
        let shownPath = store.shownPath(of: spec.name, json: isJSON)
        let stepHeld = outcome.failures.isEmpty
        if case .missing = stored {
            if settings.failsWhenMissing && !settings.update {
                outcome.failures.append(
                    AssertionFailure(
                        location: spec.location, subject: subject,
                        message: "\(subject) is missing: \(shownPath) is not written when CI is set; run apitest "
                            + "run --update-snapshots (or without CI) and commit it"))
                return
            }
        } else if let difference {
            if !settings.update || !stepHeld {
                outcome.failures.append(
                    AssertionFailure(
                        location: spec.location, subject: subject,
                        text: "\(subject): \(difference) (\(shownPath); --update-snapshots rewrites it)"))
                return
            }
        } else {
            return
        }
        // Missing (outside CI), or different with --update-snapshots: write it, if the step's other checks held.
        let verb = difference == nil ? "written" : "updated"
        guard stepHeld else {
            outcome.warnings.append(
                AssertionFailure(
                    location: spec.location, subject: subject,
                    message: "\(subject) not written: the step's other checks failed"))
            return
        }
        do {
            try store.write(written, as: spec.name, json: isJSON)
            settings.written.add()
            outcome.warnings.append(
                AssertionFailure(location: spec.location, subject: subject, message: "\(subject) \(verb): \(shownPath)")
            )
        } catch {
            outcome.failures.append(
                AssertionFailure(
                    location: spec.location, subject: subject,
                    message: "\(subject) could not be written: \(error.reason)"))
        }
    }

    /// How a body that is not JSON differs from the `stored` snapshot: a text body (`text`, normalized; `bytes`
    /// its UTF-8) compared as text with a text snapshot, any other pair byte for byte; nil when they are the same
    /// or nothing is stored.
    private static func difference(
        of stored: SnapshotStore.Stored, text: String?, bytes: [UInt8], _ normalizer: SnapshotNormalizer,
        _ store: SnapshotStore, _ spec: SnapshotSpec
    ) -> MessageText? {
        switch stored {
        case .text(let expected):
            if let text {
                return SnapshotComparison.difference(expectedText: normalizer.normalized(expected), actualText: text)
            }
            return SnapshotComparison.difference(
                expectedBytes: normalizer.normalized(bytes: Array(expected.utf8)), actualBytes: bytes)
        case .bytes(let expected):
            return SnapshotComparison.difference(
                expectedBytes: normalizer.normalized(bytes: expected), actualBytes: bytes)
        case .json:
            return "the snapshot is JSON (\(store.shownPath(of: spec.name, json: true))), the body is not JSON"
        case .unusable(let reason): return "cannot be used: \(reason)"
        case .missing: return nil
        }
    }

    /// The body as JSON when it parses as JSON and says so (or is an object or an array), else as UTF-8 text, else
    /// (not UTF-8) as its bytes.
    static func snapshotBody(_ response: HTTPResponse) -> SnapshotBody {
        let bytes = [UInt8](response.body)
        let mediaType = response.mediaType ?? ""
        let declaredJSON = mediaType.hasSuffix("/json") || mediaType.hasSuffix("+json")
        if let value = try? JSONParser.parse(bytes) {
            switch value {
            case .object, .array: return .json(value)
            default: if declaredJSON { return .json(value) }
            }
        }
        return String(validating: bytes, as: UTF8.self).map(SnapshotBody.text) ?? .bytes(bytes)
    }
}
