// MARK: - Notes

extension SuiteDocument {
    /// Something of the source that was not translated into the suite (or not exactly), or a remark of the writer:
    /// where it is in the source and what happened to it. The renderer writes each note as a `#` comment next to what
    /// it concerns, and `apitest import` lists them on standard error.
    package struct Note: Sendable, Hashable {
        /// Where the item is in the source, in words a reader can find it by: `argument 7`,
        /// `line 3, argument 2`, `collection › folder › request: line 12`; empty when the note says it all.
        package var location: String
        /// What was not translated, and why or what to do instead.
        package var text: String

        /// A note about the item at `location`.
        package init(location: String, text: String) {
            self.location = location
            self.text = text
        }

        /// `location: text` on one line (line breaks and control characters of names from the source escaped), as the
        /// command lists it and the suite's comment says it.
        package var rendered: String {
            (location.isEmpty ? text : "\(location): \(text)").onOneLineForNotes
        }
    }
}
