/// A schema location: a document and a JSON Pointer into it.
struct SchemaLocation: Hashable, Sendable {
    var document: String
    var pointer: [String]

    func appending(_ tokens: String...) -> SchemaLocation {
        SchemaLocation(document: document, pointer: pointer + tokens)
    }
}
