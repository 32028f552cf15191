import APITestSupport

// MARK: - Reading a word into a suite

extension ShellWord {
    /// The word from its `count`th character on (for `-XPOST`'s argument `POST`), or nil when that falls inside a
    /// variable reference.
    func dropping(_ count: Int) -> ShellWord? {
        var rest = count
        var result = ShellWord()
        for piece in pieces {
            if rest == 0 {
                result.append(piece)
                continue
            }
            guard case .literal(let bytes) = piece else { return nil }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.count <= rest {
                rest -= text.count
            } else {
                result.append(.text(String(text.dropFirst(rest))))
                rest = 0
            }
        }
        return rest == 0 ? result : nil
    }

    /// The literal text the word starts with (before its first variable reference).
    var literalPrefix: String {
        if case .literal(let bytes)? = pieces.first { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }
}
