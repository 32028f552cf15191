import APITestResults
import Foundation

// MARK: - Recognising a file to merge

extension ReportMerger {
    /// A file given to merge, recognised by its contents and decoded once: an OpenAPI coverage file (it has
    /// `documents`), a load report (its `kind` is `load`), a run's CTRF report (its `reportFormat` is `CTRF`: read
    /// as the JSON report of the same run, from the facts apitest keeps in it), else a run's JSON report.
    enum InputDocument: Decodable {
        case coverage(OpenAPICoverage)
        case grpcCoverage(GRPCCoverage)
        case load(LoadReportFormats.Document)
        case run(JSONReportDocument)

        /// The members that tell the three apart.
        private enum Key: String, CodingKey {
            case documents
            case sources
            case kind
            case reportFormat
        }

        /// Looks at the discriminating members, then decodes the whole document as the one they name.
        init(from decoder: any Decoder) throws {
            let members = try decoder.container(keyedBy: Key.self)
            if members.contains(.documents) {
                let document = try OpenAPICoverageReportFormat.Document(from: decoder)
                self = .coverage(OpenAPICoverage(documents: document.documents))
            } else if members.contains(.sources) {
                let document = try GRPCCoverageReportFormat.Document(from: decoder)
                self = .grpcCoverage(GRPCCoverage(sources: document.sources))
            } else if (try? members.decode(String.self, forKey: .kind)) == "load" {
                self = .load(try LoadReportFormats.Document(from: decoder))
            } else if (try? members.decode(String.self, forKey: .reportFormat)) == "CTRF" {
                // A CTRF file without apitest's facts is not one apitest can merge: not a report (`nil`).
                self = .run(try CTRFDocument(from: decoder).jsonReport())
            } else {
                self = .run(try JSONReportDocument(from: decoder))
            }
        }

        /// The document `data` holds; `nil` when it is none of the three.
        static func read(_ data: Data) -> InputDocument? {
            // The load report's dates and non-finite numbers (the other two hold neither).
            try? LoadReportFormats.decoder().decode(InputDocument.self, from: data)
        }
    }
}
