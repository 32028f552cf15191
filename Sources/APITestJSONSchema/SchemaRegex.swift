package import APITestJSON

/// An ECMA-262 pattern (`pattern`, `patternProperties`), unanchored as JSON Schema requires, matched by
/// ``LinearRegex`` code point by code point (the `u` flag's reading) in time linear in the text, whatever the
/// pattern: `^(é*)*b$` on a million `é` costs a million steps times the pattern's size, never a backtracking
/// engine's exponential time or its stack.
///
/// The pattern is translated to ``LinearRegex`` syntax with ECMA-262's meanings: `\d`, `\w` and `\s` are ECMA's
/// sets (ASCII digits and word characters, white space with U+FEFF and without U+0085), `.` stops only at LF, CR,
/// U+2028 and U+2029, `$` matches only at the end, `\uD83D\uDE00` and `\u{1F600}` are one code point, `[]` matches
/// nothing and `[^]` anything. What needs backtracking (back-references, look-around) is refused when the schema is
/// compiled (``compile(_:)``), with where in the pattern.
package final class SchemaRegex: Sendable {
    /// The pattern as written (ECMA-262).
    package let source: String
    /// The translated pattern's automaton.
    let program: LinearRegex
    /// The same pattern as an automaton for printable ASCII text, when it is in the subset ``ASCIIPattern`` reads:
    /// most values are answered without translating the text to scalars.
    let asciiProgram: ASCIIPattern?

    /// The pattern compiled, or nil when ``compile(_:)`` refuses it.
    package convenience init?(_ source: String) {
        guard let program = try? Self.program(for: source) else { return nil }
        self.init(source: source, program: program)
    }

    private init(source: String, program: LinearRegex) {
        self.source = source
        self.program = program
        self.asciiProgram = ASCIIPattern(source)
    }

    /// Compiles `source`, or says why it cannot be matched in linear time (or is not a pattern).
    package static func compile(_ source: String) throws(PatternError) -> SchemaRegex {
        SchemaRegex(source: source, program: try program(for: source))
    }

    private static func program(for source: String) throws(PatternError) -> LinearRegex {
        let translation = try Translation(source)
        do {
            return try LinearRegex(translation.text)
        } catch {
            var located = error
            located.offset =
                translation.origins.isEmpty ? 0 : translation.origins[min(error.offset, translation.origins.count - 1)]
            throw PatternError(reason: located.description)
        }
    }

    // MARK: - Matching

    /// Whether the pattern matches anywhere in `string`; false when the task was cancelled before it knew (the
    /// evaluator reports the cancellation).
    package func matches(_ string: String) -> Bool {
        (try? matchesOrInterrupts(string)) ?? false
    }

    /// Whether the pattern matches anywhere in `string`; throws when the task is cancelled while matching.
    package func matchesOrInterrupts(_ string: String) throws(LinearRegex.Interruption) -> Bool {
        if let verdict = asciiProgram?.matches(string) { return verdict }
        return try program.matches(string)
    }

    /// Whether the pattern matches anywhere in the text whose UTF-8 bytes are `bytes`, when the ASCII automaton can
    /// tell (a pattern in its subset, printable ASCII text); nil otherwise.
    func matchesPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        asciiProgram?.matches(bytes)
    }

    /// Whether ``LinearRegex`` finds the pattern in `string` (what ``matches(_:)`` answers when the ASCII automaton
    /// cannot).
    package func matchesWithLinearRegex(_ string: String) -> Bool {
        (try? program.matches(string)) ?? false
    }

    /// Whether ``LinearRegex`` finds the pattern in `string`, adding the steps it took to `steps` (linear in the
    /// text: what the tests hold it to).
    package func matchesWithLinearRegex(_ string: String, steps: inout Int) -> Bool {
        (try? program.matches(string, steps: &steps)) ?? false
    }

    /// Whether the ASCII automaton of the pattern was also made deterministic (``ASCIIPattern/DFA``): what its
    /// searches run.
    package var hasDeterministicAutomaton: Bool { asciiProgram?.dfa != nil }

    /// What the ASCII automaton answers for `string` when it simulates its states one by one instead of running
    /// their deterministic form; nil when it cannot answer (as ``usesASCIIProgram(for:)``). For the tests that hold
    /// the two to the same answers.
    package func matchesBySimulation(_ string: String) -> Bool? {
        asciiProgram?.matchesSimulating(string)
    }

    /// Whether the pattern is in the subset that ``ASCIIPattern`` reads.
    package var hasASCIIProgram: Bool { asciiProgram != nil }

    /// Whether `string` is answered by the ASCII automaton rather than ``LinearRegex``.
    package func usesASCIIProgram(for string: String) -> Bool {
        asciiProgram?.matches(string) != nil
    }

    // MARK: - Errors

    /// Why a pattern is refused: a sentence ending with the character it concerns.
    package struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and where (`a look-ahead '(?=' is not supported: ..., at character 2`).
        package var reason: String
        /// The reason.
        package var description: String { reason }
    }
}
