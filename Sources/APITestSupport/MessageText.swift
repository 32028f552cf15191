// MARK: - MessageText

/// A sentence for people that quotes values from outside the suite (a response's values, a server's words), kept as
/// the words and the quoted values apart until the step's result is sealed.
///
/// Sealing (`StepDraft.sealed(by:)`) masks each quoted value whole and only then cuts it to its limit, so a cut
/// never leaves part of a secret that masking would no longer recognise; nothing before sealing masks or cuts.
/// Written as a string interpolation: `"\(subject): expected \(quoting: expected, limit: 120)"`.
package struct MessageText: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// A piece of the sentence.
    package enum Part: Sendable, Hashable {
        /// Words of the sentence (which may still hold a secret: sealing masks them too, but never cuts them).
        case words(String)
        /// A value quoted in the sentence, shown at most `limit` characters long once masked.
        case quote(String, limit: Int)
    }

    /// The sentence's pieces, in order.
    package private(set) var parts: [Part]

    /// A sentence of `words` alone.
    package init(_ words: String) {
        parts = [.words(words)]
    }

    /// A sentence of `words` alone.
    package init(stringLiteral words: String) {
        self.init(words)
    }

    /// The sentence an interpolation wrote.
    package init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The sentence with each quoted value cut to its limit, nothing masked: text for no step's result (a load
    /// error, a test).
    package var description: String {
        rendered { $0 }
    }

    /// The sentence with each piece passed through `mask`, each quoted value then cut to its limit (with `…`): what
    /// sealing shows.
    package func rendered(masking mask: (String) -> String) -> String {
        parts.reduce(into: "") { text, part in
            switch part {
            case .words(let words): text += mask(words)
            case .quote(let value, let limit): text += mask(value).truncated(to: limit)
            }
        }
    }
}

// MARK: - Writing one

extension MessageText {
    /// Collects the pieces of an interpolated ``MessageText``.
    package struct StringInterpolation: StringInterpolationProtocol {
        /// The pieces so far, adjacent words joined.
        var parts: [Part] = []

        /// An empty collection of pieces.
        package init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(interpolationCount * 2 + 1)
        }

        /// Words of the sentence.
        package mutating func appendLiteral(_ literal: String) {
            append(words: literal)
        }

        /// Words of the sentence, as `value` describes itself (`String(describing:)`).
        package mutating func appendInterpolation<Value>(_ value: Value) {
            append(words: String(describing: value))
        }

        /// `value` quoted: masked whole and then cut to `limit` characters when the message is sealed.
        package mutating func appendInterpolation(quoting value: String, limit: Int) {
            parts.append(.quote(value, limit: limit))
        }

        /// `text`'s pieces, as they are.
        package mutating func appendInterpolation(_ text: MessageText) {
            for part in text.parts {
                if case .words(let words) = part { append(words: words) } else { parts.append(part) }
            }
        }

        private mutating func append(words: String) {
            guard !words.isEmpty else { return }
            if case .words(let earlier)? = parts.last {
                parts[parts.count - 1] = .words(earlier + words)
            } else {
                parts.append(.words(words))
            }
        }
    }
}
