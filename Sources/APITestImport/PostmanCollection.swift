/// A Postman collection (format v2.0 or v2.1) as ``PostmanCollectionDecoder`` reads it: the parts that an apitest
/// suite can express or must note. Texts keep Postman's `{{name}}` placeholders; ``PostmanVariableScope`` converts
/// them.
package struct PostmanCollection: Sendable {
    /// `info.name`.
    package var name: String
    /// `info.schema`'s version: `v2.0.0`, `v2.1.0`, or nil when the file does not say.
    package var schemaVersion: String?
    /// The collection's own variables (`variable`), in order.
    package var variables: [PostmanVariable] = []
    /// The collection's auth, inherited by every request that does not set its own.
    package var auth: PostmanAuth?
    /// The collection's scripts, run around every request.
    package var events: [PostmanEvent] = []
    /// The top-level folders and requests, in order.
    package var items: [PostmanItem] = []

    /// A collection named `name`.
    package init(name: String) {
        self.name = name
    }
}

/// An entry of a collection: a folder (Postman's item group) or a request.
package enum PostmanItem: Sendable {
    case folder(PostmanFolder)
    case request(PostmanRequestItem)
}

/// A folder: a name, settings its requests inherit (auth, scripts, variables) and its items.
package struct PostmanFolder: Sendable {
    /// `name`.
    package var name: String
    /// `variable`: variables of the folder's requests (the format allows them; the Postman app does not show them).
    package var variables: [PostmanVariable] = []
    /// `auth`: nil inherits the parent's.
    package var auth: PostmanAuth?
    /// `event`: scripts run around each request of the folder.
    package var events: [PostmanEvent] = []
    /// `item`.
    package var items: [PostmanItem] = []

    /// A folder named `name`.
    package init(name: String) {
        self.name = name
    }
}

/// A request entry: its name, scripts and request.
package struct PostmanRequestItem: Sendable {
    /// `name`.
    package var name: String
    /// `variable`: variables of this request only.
    package var variables: [PostmanVariable] = []
    /// `event`: its pre-request and test scripts.
    package var events: [PostmanEvent] = []
    /// `request`.
    package var request: PostmanRequest

    /// The entry `name` sending `request`.
    package init(name: String, request: PostmanRequest) {
        self.name = name
        self.request = request
    }
}

/// A request: method, URL, headers, body and auth, texts with `{{name}}` placeholders.
package struct PostmanRequest: Sendable {
    /// `method`, upper case (GET when absent).
    package var method: String = "GET"
    /// The URL: `url.raw`, or the string `url`, with path variables (`:id`) replaced by their values.
    package var url: String = ""
    /// `header`: enabled headers, in order.
    package var headers: [(name: String, value: String)] = []
    /// `body`, nil when absent, empty or disabled.
    package var body: PostmanBody?
    /// `auth`: nil inherits the parent's.
    package var auth: PostmanAuth?

    /// An empty GET request.
    package init() {}
}

/// A request body by its `mode`.
package enum PostmanBody: Sendable {
    /// `raw`: text, with the language Postman was told (`json`, `xml`, `text`, ...) when any.
    case raw(String, language: String?)
    /// `urlencoded`: enabled fields in order.
    case urlencoded([(name: String, value: String)])
    /// `formdata`: enabled parts in order.
    case formdata([PostmanFormPart])
    /// `file`: the path of the file sent as the body (`file.src`).
    case file(String)
    /// `graphql`: the query and its variables (JSON text, possibly empty).
    case graphql(query: String, variables: String)
}

/// A `formdata` part: a text field or a file.
package struct PostmanFormPart: Sendable, Equatable {
    /// `key`.
    package var name: String
    /// `value` for a text part, the path (`src`) for a file part.
    package var value: String
    /// Whether it is a file part (`type: file`).
    package var isFile: Bool
    /// `contentType`.
    package var contentType: String?

    /// A part.
    package init(name: String, value: String, isFile: Bool, contentType: String? = nil) {
        self.name = name
        self.value = value
        self.isFile = isFile
        self.contentType = contentType
    }
}

/// An `auth` block: its type and its parameters by key (v2.0 objects and v2.1 key/value lists read alike).
package struct PostmanAuth: Sendable, Equatable {
    /// `type`: `noauth`, `basic`, `bearer`, `apikey`, `digest`, `oauth1`, `oauth2`, `awsv4`, `ntlm`, `hawk`, ...
    package var type: String
    /// The parameters of that type (`username`, `password`, `token`, `key`, `value`, `in`), values as text.
    package var parameters: [String: String]

    /// An auth block of `type`.
    package init(type: String, parameters: [String: String] = [:]) {
        self.type = type
        self.parameters = parameters
    }
}

/// A script: `prerequest` or `test`, and its lines.
package struct PostmanEvent: Sendable, Equatable {
    /// `listen`: `prerequest` or `test`.
    package var listen: String
    /// `script.exec`: the script's lines (a text is split at line breaks).
    package var lines: [String]

    /// A script listening to `listen`.
    package init(listen: String, lines: [String]) {
        self.listen = listen
        self.lines = lines
    }
}

/// A variable of a collection, folder, request, environment or globals file.
package struct PostmanVariable: Sendable, Equatable {
    /// `key` (or `id`, in old files).
    package var key: String
    /// `value` as text.
    package var value: String
    /// Whether Postman marks it a secret (`type: secret`).
    package var isSecret: Bool

    /// The variable `key` with `value`.
    package init(key: String, value: String, isSecret: Bool = false) {
        self.key = key
        self.value = value
        self.isSecret = isSecret
    }
}
