import APITestSupport

/// Reads the words of one curl command line into options and URLs as curl itself does: `--long ARG`, `-s ARG`,
/// `-sARG` and clusters of short flags (`-sSL`, `-XPOST`), `--no-NAME` for a flag, and every other word a URL.
/// curl takes no `--name=value` (that is an unknown option), and an option's argument may start with `-`.
struct CurlCommandParser {
    /// One option or URL of the command line.
    struct Argument: Sendable, Equatable {
        /// The option, or nil for a URL.
        var option: CurlOption?
        /// The option's argument, or the URL.
        var value: ShellWord?
        /// Whether a flag was given as `--no-NAME`.
        var negated = false
        /// The position of the word (1 = the first word after `curl`).
        var position: Int
        /// The option as written (`-X`, `--data`, `-L` out of `-sSL`), or the URL.
        var spelling: String
    }

    /// Why a command line is not one curl would accept; the words it quotes from the command line are escaped for the
    /// display (``Swift/String/shownInMessage``: a word may hold ESC or any other control character).
    struct Failure: Error, Sendable, Equatable {
        /// The position of the word (1 = the first word after `curl`).
        var position: Int
        /// What is wrong.
        var message: String
    }

    /// The options and URLs of `words` (the words after `curl`), in order.
    static func parse(_ words: [ShellWord]) throws(Failure) -> [Argument] {
        var arguments: [Argument] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            let position = index + 1
            index += 1
            let prefix = word.literalPrefix
            if prefix.hasPrefix("--"), prefix.count > 2 {
                guard let name = word.literal?.dropFirst(2) else {
                    throw Failure(
                        position: position,
                        message: "an option name cannot hold a variable: \(word.description.shownInMessage)")
                }
                var negated = false
                var option = CurlOption.byLong[String(name)]
                if option == nil, name.hasPrefix("no-"), let flag = CurlOption.byLong[String(name.dropFirst(3))],
                    !flag.takesArgument
                {
                    option = flag
                    negated = true
                }
                guard let option else {
                    let hint = name.contains("=") ? " (curl takes the value as the next word, not after '=')" : ""
                    throw Failure(
                        position: position, message: "unknown curl option --\(String(name).shownInMessage)\(hint)")
                }
                var argument = Argument(option: option, position: position, spelling: "--" + name)
                argument.negated = negated
                if option.takesArgument {
                    guard index < words.count else {
                        throw Failure(position: position, message: "--\(name) needs an argument")
                    }
                    argument.value = words[index]
                    index += 1
                }
                arguments.append(argument)
            } else if prefix.hasPrefix("-"), prefix.count > 1 {
                var offset = 1
                let letters = Array(prefix)
                while offset < letters.count {
                    let letter = letters[offset]
                    guard let option = CurlOption.byShort[letter] else {
                        throw Failure(
                            position: position, message: "unknown curl option -\(String(letter).shownInMessage)")
                    }
                    var argument = Argument(option: option, position: position, spelling: "-" + String(letter))
                    offset += 1
                    if option.takesArgument {
                        if offset < letters.count || word.literal == nil {
                            argument.value = word.dropping(offset)
                        } else {
                            guard index < words.count else {
                                throw Failure(position: position, message: "-\(letter) needs an argument")
                            }
                            argument.value = words[index]
                            index += 1
                        }
                        arguments.append(argument)
                        break
                    }
                    arguments.append(argument)
                }
                if offset >= letters.count, word.literal == nil, arguments.last?.value == nil {
                    throw Failure(
                        position: position,
                        message: "an option cluster cannot hold a variable: \(word.description.shownInMessage)")
                }
            } else {
                arguments.append(Argument(option: nil, value: word, position: position, spelling: word.description))
            }
        }
        return arguments
    }
}
