/// A message type: its fields, oneofs and the facts the codec needs (syntax, map entry), by full name.
///
/// Nested messages and enums are entries of the ``ProtoSchema`` under their full names (`acme.User.Role`); a
/// message keeps only their names.
package struct ProtoMessageDescriptor: Sendable, Hashable {
    /// The full name without a leading dot (`acme.User`).
    package var fullName: String
    /// The fields in declaration order.
    package var fields: [ProtoFieldDescriptor]
    /// The oneof names, by index (proto3 `optional` fields' synthetic oneofs included).
    package var oneofs: [String]
    /// True for the synthetic entry message of a map field (`map_entry` option).
    package var isMapEntry: Bool
    /// The syntax of the file that declares it.
    package var syntax: ProtoSyntax
    /// The full names of the messages declared inside it.
    package var nestedMessageNames: [String]
    /// The full names of the enums declared inside it.
    package var nestedEnumNames: [String]

    private var positionByNumber: [Int: Int]
    private var positionByName: [String: Int]

    /// A message with these properties.
    package init(
        fullName: String, fields: [ProtoFieldDescriptor], oneofs: [String] = [], isMapEntry: Bool = false,
        syntax: ProtoSyntax = .proto3, nestedMessageNames: [String] = [], nestedEnumNames: [String] = []
    ) {
        self.fullName = fullName
        self.fields = fields
        self.oneofs = oneofs
        self.isMapEntry = isMapEntry
        self.syntax = syntax
        self.nestedMessageNames = nestedMessageNames
        self.nestedEnumNames = nestedEnumNames
        self.positionByNumber = [:]
        self.positionByName = [:]
        reindex()
    }

    /// Rebuilds the lookups after ``fields`` changed.
    mutating func reindex() {
        positionByNumber = [:]
        positionByName = [:]
        for (position, field) in fields.enumerated() {
            positionByNumber[field.number] = position
            // The JSON name first, so that a field's original name never hides another field's JSON name.
            if positionByName[field.jsonName] == nil { positionByName[field.jsonName] = position }
        }
        for (position, field) in fields.enumerated() where positionByName[field.name] == nil {
            positionByName[field.name] = position
        }
    }

    /// The short name (`User` of `acme.User`).
    package var name: String { fullName.split(separator: ".").last.map(String.init) ?? fullName }

    /// The field with `number`.
    package func field(number: Int) -> ProtoFieldDescriptor? {
        positionByNumber[number].map { fields[$0] }
    }

    /// The field whose JSON name or original name is `name`.
    package func field(named name: String) -> ProtoFieldDescriptor? {
        positionByName[name].map { fields[$0] }
    }

    /// True when the field tracks presence: anything but a proto3 singular scalar without `optional`.
    package func hasPresence(_ field: ProtoFieldDescriptor) -> Bool {
        if field.isRepeated { return false }
        if field.type == .message || field.type == .group || field.oneofIndex != nil { return true }
        return syntax != .proto3
    }

    /// True when a repeated field of this message is written packed.
    package func isPacked(_ field: ProtoFieldDescriptor) -> Bool {
        guard field.isRepeated, field.type.isPackable else { return false }
        return field.packedOption ?? (syntax != .proto2)
    }
}

/// The syntax a `.proto` file declares.
package enum ProtoSyntax: String, Sendable, Hashable {
    case proto2, proto3, editions
}
