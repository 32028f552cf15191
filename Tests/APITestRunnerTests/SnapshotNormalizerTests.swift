import APITestJSON
import APITestSecrets
import APITestSuite
import APITestSupport
import Testing

@testable import APITestRunner

/// The normalization both sides of a snapshot comparison go through: `ignore` paths removed (array items from the
/// last, so that removing one does not move another), `redact` patterns replaced (whole JSON strings; standalone
/// occurrences in text) and secrets masked.
struct SnapshotNormalizerTests {
    let location = SourceLocation(file: "s.yaml", line: 1, column: 1)

    func normalizer(
        ignore: [String] = [], redact: [SnapshotSpec.Redaction] = [], secrets: [String] = []
    ) throws
        -> SnapshotNormalizer
    {
        let spec = SnapshotSpec(
            name: "n", ignore: try ignore.map { try JSONPath($0) }, redact: redact, location: location)
        return SnapshotNormalizer(spec: spec, masker: SecretMasker(secrets: secrets))
    }

    @Test func ignoredPathsAreRemovedWhereverTheySelect() throws {
        let value = try JSONParser.parse(
            #"{"id": 7, "items": [{"at": 1, "k": "a"}, {"at": 2, "k": "b"}, {"at": 3, "k": "c"}], "odd key's": 1}"#)
        let removed = try normalizer(ignore: ["$.id", "$.items[*].at", "$.items[0,2]", "$[\"odd key's\"]"])
            .normalized(value)
        #expect(removed == (try JSONParser.parse(#"{"items": [{"k": "b"}]}"#)))
    }

    @Test func normalizedPathsAreReadBack() {
        #expect(
            SnapshotNormalizer.segments(ofNormalizedPath: #"$['a\'b'][12]['\u0001\n']"#)
                == [.name("a'b"), .index(12), .name("\u{01}\n")])
        #expect(SnapshotNormalizer.segments(ofNormalizedPath: "$") == nil)
        #expect(SnapshotNormalizer.segments(ofNormalizedPath: "$['a'") == nil)
    }

    @Test func wholeJSONStringsAreRedactedByPattern() throws {
        let value = try JSONParser.parse(
            #"""
            {"u": "0B8F2A4E-1c3d-4e5f-8a9b-0c1d2e3f4a5b", "t": "2026-11-29T15:44:11.123+01:00", "d": "2026-11-29",
             "inside": "id 0b8f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b", "bad": "2026-13-01", "short": "0b8f2a4e-1c3d"}
            """#)
        let all = try normalizer(redact: [.uuid, .date, .datetime]).normalized(value)
        #expect(
            all
                == (try JSONParser.parse(
                    #"{"u": "<uuid>", "t": "<datetime>", "d": "<date>", "inside": "id 0b8f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b", "bad": "2026-13-01", "short": "0b8f2a4e-1c3d"}"#
                )))
        // `date` alone takes a date-time too; `datetime` alone leaves a plain date.
        let dateOnly = try normalizer(redact: [.date]).normalized(value)
        #expect(dateOnly["t"] == "<date>" && dateOnly["d"] == "<date>")
        let datetimeOnly = try normalizer(redact: [.datetime]).normalized(value)
        #expect(datetimeOnly["t"] == "<datetime>" && datetimeOnly["d"] == "2026-11-29")
    }

    @Test func textIsRedactedWhereAPatternStandsAlone() throws {
        let text = "id=0b8f2a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b at 2026-11-29T15:44:11Z; x2026-11-29 2026-11-29\n"
        let redacted = try normalizer(redact: [.uuid, .datetime, .date]).normalized(text)
        #expect(redacted == "id=<uuid> at <datetime>; x2026-11-29 <date>\n")
        #expect(try normalizer().normalized(text) == text)
    }

    @Test func secretsAreMaskedInValuesKeysAndText() throws {
        let masking = try normalizer(secrets: ["s3cr3t-value"])
        let value = try JSONParser.parse(#"{"token": "Bearer s3cr3t-value", "s3cr3t-value": 1}"#)
        let written = JSONWriter.string(masking.normalized(value))
        #expect(!written.contains("s3cr3t-value"), "\(written)")
        #expect(!masking.normalized("token=s3cr3t-value").contains("s3cr3t-value"))
    }
}
