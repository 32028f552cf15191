import APITestJSON

/// The keyword groups of 2020-12 that a dialect turns on through `$vocabulary`.
struct Vocabulary: OptionSet, Sendable, Hashable {
    let rawValue: Int
    static let core = Vocabulary(rawValue: 1)
    static let applicator = Vocabulary(rawValue: 2)
    static let unevaluated = Vocabulary(rawValue: 4)
    static let validation = Vocabulary(rawValue: 8)
    static let all: Vocabulary = [.core, .applicator, .unevaluated, .validation]

    /// The vocabulary for a `$vocabulary` object; unknown optional vocabularies are ignored.
    init(vocabularyObject: JSONObject) {
        var set: Vocabulary = [.core]
        for (uri, _) in vocabularyObject {
            switch uri {
            case "https://json-schema.org/draft/2020-12/vocab/applicator": set.insert(.applicator)
            case "https://json-schema.org/draft/2020-12/vocab/unevaluated": set.insert(.unevaluated)
            case "https://json-schema.org/draft/2020-12/vocab/validation": set.insert(.validation)
            default: break
            }
        }
        self = set
    }

    init(rawValue: Int) { self.rawValue = rawValue }
}
