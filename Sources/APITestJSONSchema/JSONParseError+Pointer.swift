package import APITestJSON

// MARK: - Where, with the JSON Pointer

extension JSONParseError {
    /// `line L, column C, at /paths/~1users/get: message`: the position and, beside it, the JSON Pointer of the
    /// member or element the error is in (shown escaped, ``JSONPointer/shown(_:)``), which finds the place in a
    /// minified document whose every position is on line 1; without `at` at the top of the document.
    package var locatedDescription: String {
        "line \(line), column \(column)" + (pointer.isEmpty ? "" : ", at \(JSONPointer.shown(pointer))") + ": "
            + message
    }

    /// `error` as a message says it: a ``JSONParseError`` with its pointer (``locatedDescription``), any other
    /// error as it describes itself.
    package static func describing(_ error: any Error) -> String {
        (error as? JSONParseError)?.locatedDescription ?? "\(error)"
    }
}
