/// An enum type: its values by name and number.
package struct ProtoEnumDescriptor: Sendable, Hashable {
    /// One value of the enum.
    package struct Value: Sendable, Hashable {
        /// The value's name (`ADMIN`).
        package var name: String
        /// The value's number.
        package var number: Int32

        /// A value named `name` with `number`.
        package init(name: String, number: Int32) {
            self.name = name
            self.number = number
        }
    }

    /// The full name without a leading dot (`acme.Role`).
    package var fullName: String
    /// The values in declaration order (aliases included).
    package var values: [Value]
    /// True for proto2 enums, which accept only the numbers they declare.
    package var isClosed: Bool

    /// An enum with these values.
    package init(fullName: String, values: [Value], isClosed: Bool = false) {
        self.fullName = fullName
        self.values = values
        self.isClosed = isClosed
    }

    /// The first value declared with `number` (the JSON mapping's name for it).
    package func value(number: Int32) -> Value? {
        values.first { $0.number == number }
    }

    /// The value named `name`.
    package func value(named name: String) -> Value? {
        values.first { $0.name == name }
    }
}
