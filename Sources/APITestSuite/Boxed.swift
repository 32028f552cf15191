/// An optional setting kept out of line: one reference in the value that holds it, the setting itself in an
/// immutable box allocated only when it is set.
///
/// Steps hold many optional settings that most steps leave out (credentials, a body, a content type, a timeout, a
/// retry, a schema); inline, each takes its full size in every step (a `RetrySpec?` alone takes 184 bytes), and a
/// suite can hold 100,000 steps. Boxed, a setting that is not there costs 8 bytes. The box is never changed, so it
/// can be shared by copies and across threads; setting a new value makes a new box. Equality and hashing are the
/// value's.
@propertyWrapper
package struct Boxed<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The value's box, `nil` when the value is `nil`.
    private var box: Box?

    package init(wrappedValue: Value?) {
        box = wrappedValue.map(Box.init)
    }

    package var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }

    /// Whether a value is set, known without copying it out of its box (`wrappedValue != nil` copies the value,
    /// retaining everything it holds).
    package var isSet: Bool { box != nil }

    /// One field of the boxed value, read in place (`wrappedValue?.field` copies the whole value out first); nil
    /// when no value is set.
    package subscript<Field>(field: KeyPath<Value, Field?>) -> Field? {
        box?.value[keyPath: field]
    }

    package static func == (lhs: Boxed, rhs: Boxed) -> Bool {
        lhs.box === rhs.box || lhs.wrappedValue == rhs.wrappedValue
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }

    /// The immutable box of a value.
    private final class Box: Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }
}
