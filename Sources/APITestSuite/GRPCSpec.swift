package import APITestProtobuf
package import APITestSupport

// MARK: - GRPCSpec

/// A `grpc:` step: one gRPC call. The connection (its URL, metadata as header fields, timeout and transport keys)
/// lives in the step's `RequestSpec`, so that the request builder, the security policy and the transport settings
/// apply to it as to any request; this holds what is gRPC's own (docs/grpc.md#steps).
package struct GRPCSpec: Sendable, Hashable {
    /// The method as written: `package.Service/Method` (grpcurl's `package.Service.Method` and a leading `/` are
    /// accepted too).
    package var method: String
    /// Where the method is written.
    package var methodLocation: SourceLocation
    /// The request messages in the canonical protobuf JSON mapping, templated: one for `message:`, any number for
    /// `messages:`.
    package var messages: [GRPCMessageSpec]
    /// Whether the messages are written as `messages:` (a client or bidirectional stream) rather than `message:`.
    package var isMessageList: Bool
    /// The metadata keys the step writes, lower-case, in order: only these of the built request's header fields
    /// are sent as metadata (the suite's `defaults.headers` are HTTP's).
    package var metadataKeys: [String]
    /// The `:authority` sent instead of the URL's host and port; nil for the URL's.
    package var authority: Template?
    /// The largest response message accepted, in bytes; nil for gRPC's 4 MiB.
    package var maxMessageSize: Int?
    /// Whether `url` is written; without it the call goes to the suite's `baseURL`.
    package var hasURL: Bool
    /// The method as the suite's `.proto` files declare it, found when the suite loads; nil when the schema comes
    /// from reflection (found at run time) or the suite names none.
    package var resolved: ProtoMethodDescriptor?
    /// Where `grpc:` is written.
    package var location: SourceLocation

    /// A call of `method` with `messages`.
    package init(
        method: String, methodLocation: SourceLocation, messages: [GRPCMessageSpec] = [], isMessageList: Bool = false,
        metadataKeys: [String] = [], authority: Template? = nil, maxMessageSize: Int? = nil, hasURL: Bool = true,
        location: SourceLocation
    ) {
        self.method = method
        self.methodLocation = methodLocation
        self.messages = messages
        self.isMessageList = isMessageList
        self.metadataKeys = metadataKeys
        self.authority = authority
        self.maxMessageSize = maxMessageSize
        self.hasURL = hasURL
        self.location = location
    }

    /// Calls `body` with every template the call renders besides its request's: the messages and the authority.
    package func forEachTemplate(_ body: (Template) throws -> Void) rethrows {
        for message in messages { try message.value.forEachTemplate(body) }
        if let authority { try body(authority) }
    }
}

// MARK: - GRPCMessageSpec

/// One request message of a `grpc:` step: its JSON mapping, templated, and where it is written.
package struct GRPCMessageSpec: Sendable, Hashable {
    /// The message in the JSON mapping; strings may hold placeholders, rendered when the step runs.
    package var value: TemplateValue
    /// Where the message is written.
    package var location: SourceLocation

    /// A message written at `location`.
    package init(value: TemplateValue, location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

// MARK: - GRPCSchemaSetting

/// A suite's `grpc:` settings: where its message types come from, `.proto` files compiled once when the suite
/// loads, or the server's reflection service at run time.
package struct GRPCSchemaSetting: Sendable, Hashable {
    /// The `.proto` files as written (relative to the suite's folder).
    package var protoFiles: [String]
    /// The import paths, absolute; empty for the suite's folder.
    package var importPaths: [String]
    /// Whether the schema comes from each target's reflection service (`reflection: true`).
    package var reflection: Bool
    /// Where `grpc:` is written.
    package var location: SourceLocation

    /// A setting written at `location`.
    package init(
        protoFiles: [String] = [], importPaths: [String] = [], reflection: Bool = false, location: SourceLocation
    ) {
        self.protoFiles = protoFiles
        self.importPaths = importPaths
        self.reflection = reflection
        self.location = location
    }
}

// MARK: - SuiteGRPCSchema

/// The schema a suite's `.proto` files compiled to, with the setting it came from. Equal when the settings are: a
/// schema is never compared.
package struct SuiteGRPCSchema: Sendable, Hashable {
    /// The descriptors.
    package var schema: ProtoSchema
    /// Where they came from.
    package var setting: GRPCSchemaSetting

    /// A loaded schema.
    package init(schema: ProtoSchema, setting: GRPCSchemaSetting) {
        self.schema = schema
        self.setting = setting
    }

    package static func == (lhs: SuiteGRPCSchema, rhs: SuiteGRPCSchema) -> Bool { lhs.setting == rhs.setting }

    package func hash(into hasher: inout Hasher) { hasher.combine(setting) }
}
