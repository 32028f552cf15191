package import APITestSupport

/// One request of a test, what its response must satisfy, and what to capture from it.
///
/// A step's fields live in one copy-on-write box, so that a `Step` is one reference: copying it (into an array, out
/// of one, into a closure) costs one retain instead of copying some 700 bytes and retaining every reference inside.
/// A mutation copies the box first when it is shared (`isKnownUniquelyReferenced`), and the `_modify` accessors let
/// `step.request.url = …` change the box in place. Equality and hashing are over the fields, as for a plain struct.
package struct Step: Sendable, Hashable {
    private var storage: Storage

    package init(
        location: SourceLocation, request: RequestSpec, expect: Expectations, captures: [CaptureSpec],
        retry: RetrySpec? = nil
    ) {
        storage = Storage(location: location, request: request, expect: expect, captures: captures, retry: retry)
    }

    // MARK: - Fields

    package var location: SourceLocation {
        _read { yield storage.location }
        _modify {
            makeUnique()
            yield &storage.location
        }
    }

    package var request: RequestSpec {
        _read { yield storage.request }
        _modify {
            makeUniqueForTemplates()
            yield &storage.request
        }
    }

    package var expect: Expectations {
        _read { yield storage.expect }
        _modify {
            makeUniqueForTemplates()
            yield &storage.expect
        }
    }

    package var captures: [CaptureSpec] {
        _read { yield storage.captures }
        _modify {
            makeUniqueForTemplates()
            yield &storage.captures
        }
    }

    /// The step's `name`, `when` and `forEach`; `nil` for none of them (most steps).
    package var control: StepControl? {
        _read { yield storage.control }
        _modify {
            makeUnique()
            yield &storage.control
        }
    }

    /// The step's WebSocket conversation (`websocket:`); nil for a request step. Its connection is `request`.
    package var websocket: WebSocketSpec? {
        _read { yield storage.websocket }
        _modify {
            makeUniqueForTemplates()
            yield &storage.websocket
        }
    }

    /// The step's gRPC call (`grpc:`); nil for other steps. Its connection (URL, metadata, timeout, transport) is
    /// `request`.
    package var grpc: GRPCSpec? {
        _read { yield storage.grpc }
        _modify {
            makeUniqueForTemplates()
            yield &storage.grpc
        }
    }

    /// True when the suite parser read every template of the step's request, checks, retry, WebSocket
    /// conversation and gRPC call, and none has a placeholder, so that the scope check passes the step by
    /// (`forEachTemplate` would give only literal templates, its `control`'s lists apart); false when that is not
    /// known: a step built elsewhere, or one of those parts changed since the parser marked it.
    package var hasOnlyLiteralTemplates: Bool { storage.hasOnlyLiteralTemplates }

    /// Marks the step as holding only literal templates (see `hasOnlyLiteralTemplates`): for the parser, which
    /// saw no placeholder while it read them.
    mutating func markOnlyLiteralTemplates() {
        makeUnique()
        storage.hasOnlyLiteralTemplates = true
    }

    /// Whether the step has a `name`, `when` or `forEach` (`control != nil`, without copying `control` out).
    package var hasControl: Bool { storage.hasControl }

    /// Whether the step is a gRPC call (`grpc != nil`, without copying `grpc` out).
    package var isGRPCCall: Bool { storage.isGRPCCall }

    /// The step's name, for reports (`delete pet`); nil for `step N`.
    package var name: String? { control?.name }
    /// The condition under which the step runs; nil for always.
    package var when: Condition? { control?.when }
    /// The list the step runs once for each element of; nil for once.
    package var loop: StepLoop? { control?.loop }

    /// How the step is repeated until it holds; `nil` for once (or the suite's `defaults.retry`).
    package var retry: RetrySpec? {
        _read { yield storage.retry }
        _modify {
            makeUniqueForTemplates()
            yield &storage.retry
        }
    }

    // MARK: - Copy on write

    /// Gives this step a box of its own before a mutation, when another step shares it.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// `makeUnique()` before a change to a part whose templates `hasOnlyLiteralTemplates` vouches for: it is no
    /// longer known.
    private mutating func makeUniqueForTemplates() {
        makeUnique()
        storage.hasOnlyLiteralTemplates = false
    }

    /// The fields of a step. Only a step that holds the sole reference changes them (see `makeUnique`), so a box
    /// shared between steps, tasks and threads is never written: that is what makes it `Sendable`.
    private final class Storage: @unchecked Sendable {
        var location: SourceLocation
        var request: RequestSpec
        /// See `Step.hasOnlyLiteralTemplates`; not part of equality (it says what is known of the other fields).
        /// Here, in the request's tail padding: after the boxes it made the box one byte larger than mimalloc's
        /// 320-byte size class.
        var hasOnlyLiteralTemplates = false
        var expect: Expectations
        var captures: [CaptureSpec]
        /// Boxed: most steps have no retry of their own, and a `RetrySpec?` takes 184 bytes inline.
        @Boxed var retry: RetrySpec?
        /// Boxed: most steps have no name, condition or loop.
        @Boxed var control: StepControl?
        /// Boxed: most steps are requests.
        @Boxed var websocket: WebSocketSpec?
        /// Boxed: most steps are HTTP requests.
        @Boxed var grpc: GRPCSpec?

        /// Whether `control` is set.
        var hasControl: Bool { _control.isSet }
        /// Whether `grpc` is set.
        var isGRPCCall: Bool { _grpc.isSet }

        init(
            location: SourceLocation, request: RequestSpec, expect: Expectations, captures: [CaptureSpec],
            retry: RetrySpec?
        ) {
            self.location = location
            self.request = request
            self.expect = expect
            self.captures = captures
            self.retry = retry
        }

        /// A new box with the same fields.
        func copy() -> Storage {
            let copy = Storage(location: location, request: request, expect: expect, captures: captures, retry: retry)
            copy.control = control
            copy.websocket = websocket
            copy.grpc = grpc
            copy.hasOnlyLiteralTemplates = hasOnlyLiteralTemplates
            return copy
        }
    }

    // MARK: - Equality

    package static func == (lhs: Step, rhs: Step) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.location == rhs.location && lhs.request == rhs.request && lhs.expect == rhs.expect
            && lhs.captures == rhs.captures && lhs.retry == rhs.retry && lhs.control == rhs.control
            && lhs.websocket == rhs.websocket && lhs.grpc == rhs.grpc
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        hasher.combine(request)
        hasher.combine(expect)
        hasher.combine(captures)
        hasher.combine(retry)
        hasher.combine(control)
        hasher.combine(websocket)
        hasher.combine(grpc)
    }
}

// MARK: - StepControl

/// A step's `name`, `when` and `forEach`, and the group of steps it starts.
package struct StepControl: Sendable, Hashable {
    /// `name`.
    package var name: String?
    /// `when`.
    package var when: Condition?
    /// `forEach`.
    package var loop: StepLoop?
    /// The group (`{name, when, forEach, steps}`) that starts with this step, its steps being this one and the
    /// ones after it, `count` in all; nil for none.
    package var group: StepGroup?

    /// The control of a step.
    package init(name: String? = nil, when: Condition? = nil, loop: StepLoop? = nil, group: StepGroup? = nil) {
        self.name = name
        self.when = when
        self.loop = loop
        self.group = group
    }
}

/// A group of steps (`- name: ..., forEach: ..., steps: [...]`): its `name`, `when` and `forEach` apply to its steps
/// together. The steps are stored in the test's list as they are, the first one holding the group.
package struct StepGroup: Sendable, Hashable {
    /// `name`.
    package var name: String?
    /// `when`: the whole group is skipped when false.
    package var when: Condition?
    /// `forEach`: the group runs once for each element.
    package var loop: StepLoop?
    /// How many steps the group has.
    package var count: Int
    /// Where the group is written.
    package var location: SourceLocation

    /// A group of `count` steps.
    package init(name: String?, when: Condition?, loop: StepLoop?, count: Int, location: SourceLocation) {
        self.name = name
        self.when = when
        self.loop = loop
        self.count = count
        self.location = location
    }
}

// MARK: - Templates

extension Step {
    /// Every template the step renders: its request (URL, query, headers, credentials, body, content type) and the
    /// arguments of its checks.
    package var templates: [Template] {
        var templates: [Template] = []
        templates.reserveCapacity(1 + request.headers.count + expect.assertions.count)
        forEachTemplate { templates.append($0) }
        return templates
    }

    /// Calls `body` with every template of `templates`, in the same order, without collecting them in an array.
    package func forEachTemplate(_ body: (Template) throws -> Void) rethrows {
        if let items = control?.group?.loop?.items { try body(items) }
        if let loop { try body(loop.items) }
        try body(request.url)
        for header in request.headers { try body(header.value) }
        if let query = request.query { try query.forEachTemplate(body) }
        if let auth = request.auth { try auth.templates.forEach(body) }
        if let transport = request.transport { try transport.templates.forEach(body) }
        if let requestBody = request.body { try requestBody.templates.forEach(body) }
        if let contentType = request.contentType { try body(contentType) }
        if let grpc { try grpc.forEachTemplate(body) }
        // By index: copying each `Assertion` out would retain everything it holds.
        let assertions = expect.assertions
        for index in assertions.indices { try assertions[index].argument.forEachTemplate(body) }
        if let until = retry?.until {
            for index in until.assertions.indices { try until.assertions[index].argument.forEachTemplate(body) }
        }
    }
}
