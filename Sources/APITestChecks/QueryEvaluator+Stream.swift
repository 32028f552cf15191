import APITestHTTP
import APITestJSON
import APITestSuite

extension QueryEvaluator {
    /// The value of a query on an event of `expect.events`: `event`, `id`, `retry`, `data`, or the number of
    /// events; `nil` outside an event's check.
    static func stream(
        _ query: StreamQuery, of current: (event: ServerSentEvent, count: Int)?
    ) -> Result<Found, CheckProblem> {
        guard let current else {
            return .failure(CheckProblem("\(query) is only read from the events of an `events` step"))
        }
        switch query {
        case .count: return .success(.one(.integer(Int64(current.count))))
        case .field(.event): return .success(.one(.string(current.event.event)))
        case .field(.id): return .success(.one(current.event.id.map(JSONValue.string)))
        case .field(.retry): return .success(.one(current.event.retry.map { .integer(Int64($0)) }))
        case .field(.data): return .success(.one(.string(current.event.data)))
        case .captured: return .failure(CheckProblem("\(query) is only captured from an `events` step"))
        }
    }
}
