package import APITestSupport

/// A failure of the protobuf layer: a descriptor set that does not decode, a name the schema does not declare, a
/// JSON value that does not fit its field, or message bytes that are not a valid encoding.
///
/// The kind is typed; the sentence is rendered from it (`ProtobufError+Description.swift`). `path` is the JSON
/// path of the value concerned (`$.user.roles[2]`), empty for schema problems; `location` is the place in a
/// `.proto` file that `protoc` reported.
package struct ProtobufError: Error, Sendable, Hashable {
    /// What went wrong.
    package enum Kind: Sendable, Hashable {
        // MARK: - Wire format
        /// The bytes end inside a field (a varint, a fixed-width value or a length-delimited payload).
        case truncated
        /// A varint longer than 10 bytes or beyond 64 bits.
        case varintOverflow
        /// A wire type that protobuf does not define (6 or 7) or a field number of 0 or beyond 2^29-1.
        case invalidTag(UInt64)
        /// A group (proto2's wire types 3 and 4, or a field of type group), which this codec refuses.
        case groupsUnsupported(String)
        /// Messages nested deeper than the depth budget.
        case tooDeep(limit: Int)
        /// Input larger than the size limit.
        case tooLarge(limit: Int)
        /// A string field whose bytes are not UTF-8.
        case invalidUTF8(field: String)
        /// A descriptor set (or a file descriptor) that does not decode; the text says which part.
        case malformedDescriptor(String)

        // MARK: - Schema
        /// A type name that no loaded file declares, from the field or method that names it.
        case unresolvedType(name: String, referencedFrom: String, suggestion: String?)
        /// A message type that no loaded file declares.
        case unknownMessage(name: String, suggestion: String?)
        /// A service that no loaded file declares.
        case unknownService(name: String, suggestion: String?)
        /// A method the service does not declare.
        case unknownMethod(service: String, method: String, suggestion: String?)
        /// A method reference not of the form `package.Service/Method`.
        case invalidMethodReference(String)
        /// Two files declare the same full name.
        case duplicateName(String)
        /// `protoc` could not be started.
        case protocUnavailable(String)
        /// `protoc` rejected the `.proto` files; its message, with the place it gave in ``ProtobufError/location``.
        case protocFailed(String)

        // MARK: - JSON mapping
        /// A JSON value of the wrong type for the field (`expected` names what fits, `got` the JSON type given).
        case typeMismatch(expected: String, got: String)
        /// A number or numeric string outside the field type's range, or not whole for an integer type.
        case outOfRange(value: String, type: String)
        /// A string that is not a number where a number was expected.
        case invalidNumber(value: String, type: String)
        /// A member that the message does not declare.
        case unknownField(name: String, message: String, suggestion: String?)
        /// A field given twice (under its JSON name and its original name).
        case duplicateField(name: String)
        /// Two members of one oneof set in one message.
        case oneofConflict(oneof: String, first: String, second: String)
        /// An enum name the enum does not declare (or a number that a closed enum does not declare).
        case unknownEnumValue(value: String, enumName: String, suggestion: String?)
        /// A string that is not base64 (standard or URL-safe) for a bytes field.
        case invalidBase64
        /// A malformed value of a well-known type (Timestamp, Duration, FieldMask, Any): the type and why.
        case invalidWellKnownValue(type: String, reason: String)
        /// An `Any` whose type URL names no loaded message, or that has no `@type`.
        case unresolvedAnyType(url: String, suggestion: String?)
    }

    /// What went wrong.
    package var kind: Kind
    /// The JSON path of the value concerned (`$.items[0].id`); empty when no value is concerned.
    package var path: String
    /// The place in a `.proto` file, for errors `protoc` reported with one.
    package var location: SourceLocation?

    /// An error of `kind` at `path`.
    package init(_ kind: Kind, path: String = "", location: SourceLocation? = nil) {
        self.kind = kind
        self.path = path
        self.location = location
    }
}
