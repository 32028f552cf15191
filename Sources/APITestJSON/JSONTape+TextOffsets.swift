// MARK: - Where entries are in the text

extension JSONTape {
    /// The byte offset in the text of the value or key at `index`: a string's or key's opening quote, a number's
    /// first byte. For a reader that compares or decodes a scalar over the text's bytes in place (the JSON Schema
    /// quick check), instead of decoding it into a `String` or a ``JSONValue`` first.
    package func textOffset(_ index: Int) -> Int {
        Int(self[index] & Self.payloadMask)
    }
}
