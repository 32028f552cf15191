// MARK: - LinearRegex

/// A regular expression matched in time linear in the text, whatever the pattern and the text: a Pike VM (a
/// Thompson automaton that carries capture positions, as RE2 does) runs every alternative in step over the text, so
/// `(a*)*b` on a million `a`s costs a million steps times the pattern's size, never the exponential time of a
/// backtracking engine. Suites and servers both write what it reads, so nothing they write can stall a run.
///
/// It reads the ICU syntax that suites always used, without the constructs that need backtracking: literals and
/// escapes, `.`, classes (`[a-z\d]`, `[^...]`, `\d \w \s \D \W \S`, `\p{L}` and the other general categories),
/// groups (capturing, `(?:...)`, `(?<name>...)`), alternation, the anchors `^ $ \A \z \Z \b \B`, greedy and lazy
/// quantifiers (`* + ? {n} {n,} {n,m}` and `*?` ...), `\Q...\E` and the flags `(?i)`, `(?s)`, `(?m)` (also scoped,
/// `(?i:...)`). Back-references, look-around, atomic groups, possessive quantifiers and set operations are refused
/// with a ``SyntaxError`` when the pattern is compiled. Matches are leftmost-first, as ICU's: the first alternative
/// that matches wins, and a greedy quantifier takes as much as it can.
///
/// Matching polls `Task.isCancelled` as it goes, so a run that is interrupted stops matching within a few thousand
/// steps.
package struct LinearRegex: Sendable {
    /// The pattern as written.
    package let pattern: String
    /// The compiled program; the search starts at instruction 0.
    let program: [Instruction]
    /// How many capture groups the pattern has (group 0, the whole match, not counted).
    package let captureCount: Int
    /// The named groups' numbers.
    package let groupNames: [String: Int]
    /// The sets the first scalar of a match is in, when every match starts with one (``firstScalars(of:)``).
    let firstScalars: FirstScalars?
    /// Each instruction's ASCII answers (none for instructions that consume nothing).
    let asciiMasks: [ASCIIMask]

    /// How many steps may pass between two looks at `Task.isCancelled`.
    static let cancellationInterval = 20_000

    /// The most instructions a pattern may compile to (counted repetitions are copied out): `(a{100}){100}` is
    /// refused. Matching costs at most this many steps per character of text.
    package static let maximumInstructions = 20_000

    /// Compiles `pattern`; `flags` are in effect from the start (as `(?i)` would set them).
    package init(_ pattern: String, flags: Flags = []) throws(SyntaxError) {
        var parser = Parser(pattern, flags: flags)
        let node = try parser.parse()
        var compiler = Compiler()
        try compiler.emitSearch(node)
        self.pattern = pattern
        self.program = compiler.program
        self.captureCount = parser.captureCount
        self.groupNames = parser.groupNames
        self.firstScalars = Self.firstScalars(of: compiler.program)
        self.asciiMasks = compiler.program.map { instruction in
            if case .consume(let set) = instruction { return set.asciiMask }
            return ASCIIMask(low: 0, high: 0)
        }
    }

    // MARK: - Flags

    /// Matching options, as the inline flags set them.
    package struct Flags: OptionSet, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `(?i)`: letters match either case.
        package static let caseInsensitive = Flags(rawValue: 1)
        /// `(?s)`: `.` also matches line terminators.
        package static let dotMatchesLineTerminators = Flags(rawValue: 2)
        /// `(?m)`: `^` and `$` also match at the start and end of each line.
        package static let multiline = Flags(rawValue: 4)
    }

    // MARK: - Program

    /// One instruction of the automaton.
    enum Instruction: Sendable {
        /// Consumes one scalar that `set` holds.
        case consume(ScalarSet)
        /// Goes on at both targets without consuming; the first is preferred.
        case split(Int, Int)
        /// Goes on at the target.
        case jump(Int)
        /// Records the current position in capture slot `n` (2g is group g's start, 2g+1 its end).
        case save(Int)
        /// Goes on only where the assertion holds.
        case assert(Assertion)
        /// The pattern has matched.
        case match
    }

    /// A zero-width assertion.
    enum Assertion: Sendable, Hashable {
        /// `\A`, and `^` without `(?m)`.
        case startOfText
        /// `\z`.
        case endOfText
        /// `\Z`, and `$` without `(?m)`: the end, or just before a line terminator that ends the text.
        case endOfTextOrFinalTerminator
        /// `^` with `(?m)`.
        case startOfLine
        /// `$` with `(?m)`.
        case endOfLine
        /// `\b`.
        case wordBoundary
        /// `\B`.
        case notWordBoundary
    }

    // MARK: - Errors

    /// Why a pattern does not compile, with the offset (in Unicode scalars) of the construct concerned.
    package struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        package enum Kind: Sendable, Hashable {
            /// A construct that needs a backtracking engine (`\1`, `(?=`, `(?>`, `a*+`...), named.
            case unsupported(String)
            /// A `(` without `)`.
            case unclosedGroup
            /// A `)` without `(`.
            case unmatchedParenthesis
            /// A `[` without `]`.
            case unclosedClass
            /// A quantifier with nothing before it (`*a`, `a**`).
            case nothingToRepeat
            /// `{n,m}` with m < n, or a count above 1000.
            case badRepetition
            /// An escape that is not known (`\y`), or a malformed one (`\x{zz}`, `\p{Foo}`).
            case badEscape(String)
            /// A class range whose end comes before its start (`[z-a]`).
            case badRange
            /// An inline flag other than `i`, `s` and `m`, or a malformed group name.
            case badGroup
            /// The pattern compiles to more than ``LinearRegex/maximumInstructions`` instructions.
            case tooLarge
        }

        /// What is wrong.
        package var kind: Kind
        /// Where, in Unicode scalars from the start of the pattern.
        package var offset: Int

        /// A sentence for people.
        package var description: String {
            let what: String
            switch kind {
            case .unsupported(let construct):
                what =
                    "\(construct) is not supported: patterns are matched in linear time, which rules out "
                    + "back-references, look-around, atomic groups and possessive quantifiers"
            case .unclosedGroup: what = "a '(' is not closed"
            case .unmatchedParenthesis: what = "a ')' has no matching '('"
            case .unclosedClass: what = "a '[' is not closed"
            case .nothingToRepeat: what = "a quantifier has nothing to repeat"
            case .badRepetition: what = "a repetition count is above 1000 or its maximum is below its minimum"
            case .badEscape(let escape): what = "the escape '\(escape)' is not supported"
            case .badRange: what = "a class range ends before it starts"
            case .badGroup: what = "a group's flags or name are not supported (flags: i, s, m)"
            case .tooLarge:
                what = "the pattern is too large (more than \(LinearRegex.maximumInstructions) instructions compiled)"
            }
            return "\(what), at character \(offset + 1)"
        }
    }

    /// Matching stopped before it had an answer.
    package enum Interruption: Error, Sendable, Hashable {
        /// The task that matches was cancelled (the run was interrupted).
        case cancelled
        /// Finding every match took more than `limit` steps (``forEachMatch(in:steps:_:)``): a pattern whose
        /// preferred alternative runs past each match (`(a.*b)|a`) would scan the rest of the text once per match.
        case stepLimit(Int)
    }
}
