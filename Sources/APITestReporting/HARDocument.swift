/// An HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/) as `--report-har` writes it: the
/// shape of its JSON, encoded by `JSONEncoder`. Fields HAR makes optional are left out when apitest has nothing to
/// say; apitest's own facts are in `_`-prefixed fields, which HAR allows (`_apitest` on each entry,
/// `_resourceType` as Chromium writes it, `_error` when no response arrived).
struct HARDocument: Encodable {
    var log: Log

    struct Log: Encodable {
        var version = "1.2"
        var creator: Creator
        var pages: [Page]
        var entries: [Entry]
    }

    struct Creator: Encodable {
        var name = "apitest"
        var version: String
    }

    /// One suite of the run.
    struct Page: Encodable {
        var startedDateTime: String
        var id: String
        var title: String
        var pageTimings = PageTimings()
    }

    struct PageTimings: Encodable {
        var onContentLoad = -1
        var onLoad = -1
    }

    /// One exchange: one request sent and what answered it.
    struct Entry: Encodable {
        var pageref: String?
        var startedDateTime: String
        var time: Double
        var request: Request
        var response: Response
        var cache = Cache()
        var timings: Timings
        var serverIPAddress: String?
        var connection: String?
        var resourceType = "fetch"
        var error: String?
        var apitest: Origin

        enum CodingKeys: String, CodingKey {
            case pageref, startedDateTime, time, request, response, cache, timings, serverIPAddress, connection
            case resourceType = "_resourceType"
            case error = "_error"
            case apitest = "_apitest"
        }
    }

    /// Where in the run an entry comes from (the `_apitest` field).
    struct Origin: Encodable {
        var suite: String
        var file: String
        var test: String
        /// The step's name, or `step N`.
        var step: String
        /// The step's index in its test, from 0.
        var stepIndex: Int
        /// Which sending of the step's request (a step's `retry:`), from 1.
        var attempt: Int
        /// Which run of the test (`--retries`, a test's `retries:`), from 1.
        var testAttempt: Int
        /// `request` for the step's own request, `token` for an OAuth2 token request sent for it.
        var kind: String
    }

    struct NameValue: Encodable {
        var name: String
        var value: String
    }

    struct Cookie: Encodable {
        var name: String
        var value: String
        var path: String?
        var domain: String?
        var expires: String?
        var httpOnly: Bool?
        var secure: Bool?
    }

    struct Request: Encodable {
        var method: String
        var url: String
        var httpVersion: String
        var cookies: [Cookie]
        var headers: [NameValue]
        var queryString: [NameValue]
        var postData: PostData?
        var headersSize = -1
        var bodySize: Int
    }

    struct PostData: Encodable {
        var mimeType: String
        var params: [Param]?
        /// Left out for a multipart body, which is given as `params` (HAR makes the two exclusive).
        var text: String?
        var comment: String?
    }

    struct Param: Encodable {
        var name: String
        var value: String?
        var fileName: String?
        var contentType: String?
    }

    struct Response: Encodable {
        var status: Int
        var statusText: String
        var httpVersion: String
        var cookies: [Cookie]
        var headers: [NameValue]
        var content: Content
        var redirectURL: String
        var headersSize = -1
        var bodySize: Int
    }

    struct Content: Encodable {
        var size: Int
        var mimeType: String
        var text: String?
        var encoding: String?
        var comment: String?
    }

    struct Cache: Encodable {}

    /// Milliseconds; -1 for a phase that did not happen (no name lookup or connection on a reused connection, no
    /// TLS on plain HTTP).
    struct Timings: Encodable {
        var blocked: Double
        var dns: Double
        var connect: Double
        var send: Double
        var wait: Double
        var receive: Double
        var ssl: Double
    }
}
