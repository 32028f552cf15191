// MARK: - CustomStringConvertible

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text (see ``JSONWriter``).
    public var description: String {
        JSONWriter.string(self)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text (see ``JSONWriter``).
    public var description: String {
        JSONWriter.string(.object(self))
    }
}
