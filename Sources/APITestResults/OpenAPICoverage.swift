/// How much of the OpenAPI documents named by a run's suites its requests covered: for each document, every declared
/// operation with how often it was called and how often each of its declared responses (`200`, `2XX`, `default`)
/// was the one a response matched, and the requests that matched no operation.
///
/// Counts only add up: ``merge(_:)`` of the coverage of two shards of a run is the coverage of the whole run, in
/// any order, so the document written by `--report-openapi-coverage` merges cleanly across CI shards.
package struct OpenAPICoverage: Sendable, Hashable, Codable {
    /// Version of this document's layout, `schemas/openapi-coverage.schema.json`.
    package static let formatVersion = 1

    package var formatVersion = OpenAPICoverage.formatVersion
    /// One entry per OpenAPI document, in the order the run first named them.
    package var documents: [Document]

    package init(documents: [Document] = []) {
        self.documents = documents
    }

    // MARK: - Model

    /// One OpenAPI document and what the run covered of it.
    package struct Document: Sendable, Hashable, Codable {
        /// The document's path as the suites named it (relative to the working directory when under it).
        package var file: String
        /// The document's `openapi` version (`3.0.3`, `3.1.0`).
        package var openapi: String
        /// Every operation the document declares (those left out by `ignore` excepted), in document order.
        package var operations: [Operation]
        /// Requests that matched no operation, one entry per method and path (server prefix removed).
        package var unmatched: [Unmatched]

        package init(file: String, openapi: String, operations: [Operation], unmatched: [Unmatched] = []) {
            self.file = file
            self.openapi = openapi
            self.operations = operations
            self.unmatched = unmatched
        }
    }

    /// One declared operation.
    package struct Operation: Sendable, Hashable, Codable {
        package var operationId: String?
        /// Upper case: `GET`.
        package var method: String
        /// The path template as declared: `/pets/{id}`.
        package var path: String
        /// Responses that matched this operation.
        package var calls: Int
        /// Every declared response, in document order.
        package var responses: [Response]

        package init(operationId: String?, method: String, path: String, calls: Int = 0, responses: [Response]) {
            self.operationId = operationId
            self.method = method
            self.path = path
            self.calls = calls
            self.responses = responses
        }

        /// `operationId`, else `METHOD /path`.
        package var displayName: String { operationId ?? "\(method) \(path)" }
        /// True when at least one response matched the operation.
        package var isCovered: Bool { calls > 0 }
    }

    /// One declared response of an operation.
    package struct Response: Sendable, Hashable, Codable {
        /// The key as declared: `200`, `2XX`, `default`.
        package var status: String
        /// Responses that matched this entry.
        package var hits: Int

        package init(status: String, hits: Int = 0) {
            self.status = status
            self.hits = hits
        }
    }

    /// Requests that matched no operation of the document.
    package struct Unmatched: Sendable, Hashable, Codable {
        package var method: String
        package var path: String
        package var hits: Int

        package init(method: String, path: String, hits: Int = 1) {
            self.method = method
            self.path = path
            self.hits = hits
        }
    }

    // MARK: - Totals

    /// Operations and responses declared and hit, over every document.
    package struct Totals: Sendable, Hashable, Codable {
        package var operations = 0
        package var operationsHit = 0
        package var responses = 0
        package var responsesHit = 0

        package init() {}
    }

    /// The totals of one document.
    package static func totals(of document: Document) -> Totals {
        var totals = Totals()
        for operation in document.operations {
            totals.operations += 1
            if operation.isCovered { totals.operationsHit += 1 }
            totals.responses += operation.responses.count
            totals.responsesHit += operation.responses.count { $0.hits > 0 }
        }
        return totals
    }

    /// The totals over every document.
    package var totals: Totals {
        documents.map(Self.totals(of:)).reduce(into: Totals()) { sum, next in
            sum.operations += next.operations
            sum.operationsHit += next.operationsHit
            sum.responses += next.responses
            sum.responsesHit += next.responsesHit
        }
    }

    // MARK: - Merging

    /// Adds `other`'s counts to these: documents by file, operations by method and path, responses by status,
    /// unmatched requests by method and path; what only one side has is kept as it is.
    package mutating func merge(_ other: OpenAPICoverage) {
        for document in other.documents {
            guard let index = documents.firstIndex(where: { $0.file == document.file }) else {
                documents.append(document)
                continue
            }
            documents[index].merge(document)
        }
    }
}

// MARK: - Merging documents

extension OpenAPICoverage.Document {
    /// Adds `other`'s counts to these (see ``OpenAPICoverage/merge(_:)``).
    mutating func merge(_ other: OpenAPICoverage.Document) {
        for operation in other.operations {
            guard
                let index = operations.firstIndex(where: { $0.method == operation.method && $0.path == operation.path })
            else {
                operations.append(operation)
                continue
            }
            operations[index].calls += operation.calls
            operations[index].operationId = operations[index].operationId ?? operation.operationId
            for response in operation.responses {
                if let position = operations[index].responses.firstIndex(where: { $0.status == response.status }) {
                    operations[index].responses[position].hits += response.hits
                } else {
                    operations[index].responses.append(response)
                }
            }
        }
        for request in other.unmatched {
            if let index = unmatched.firstIndex(where: { $0.method == request.method && $0.path == request.path }) {
                unmatched[index].hits += request.hits
            } else {
                unmatched.append(request)
            }
        }
    }
}
