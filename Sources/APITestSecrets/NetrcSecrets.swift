import Foundation
import Synchronization

// MARK: - NetrcSecrets

/// The passwords of a netrc file, to mask: libcurl reads the file itself and sends its credentials as a `Basic`
/// header the request never holds, which a server may echo. Every entry's password counts (not only the one for the
/// request's host: masking more than needed shows less, never more), with its `login:password` pair, whose base64 is
/// the `Basic` token.
enum NetrcSecrets {
    /// The secrets of each file read so far, by path: a run reads a file once.
    private static let cache = Mutex<[String: [String]]>([:])

    /// The longest file read: a netrc file is a few lines.
    static let sizeLimit = 1 << 20

    /// The secrets of `file`, or of `~/.netrc` when it is nil (as libcurl chooses); none when it cannot be read.
    static func secrets(in file: String?) -> [String] {
        let path = file ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".netrc").path
        if let known = cache.withLock({ $0[path] }) { return known }
        var found: [String] = []
        if let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            if let data = try? handle.read(upToCount: sizeLimit) {
                found = secrets(of: String(decoding: data, as: UTF8.self))
            }
        }
        cache.withLock { $0[path] = found }
        return found
    }

    /// The passwords of netrc `text` and each with its entry's login as `login:password`.
    static func secrets(of text: String) -> [String] {
        var found: [String] = []
        var login: String?
        var password: String?
        func endEntry() {
            if let password {
                found.append(password)
                if let login { found.append("\(login):\(password)") }
            }
            login = nil
            password = nil
        }
        var tokens = Tokens(text)
        while let token = tokens.next() {
            switch token {
            case "machine", "default":
                endEntry()
            case "login":
                login = tokens.next()
            case "password":
                password = tokens.next()
            case "macdef":
                tokens.skipMacro()
            default:
                break
            }
        }
        endEntry()
        return found.filter { $0.utf8.count >= SecretMasker.shortestCredential }
    }

    /// The words of a netrc file: separated by white space, or in double quotes with `\` escapes (libcurl reads a
    /// quoted password that way).
    private struct Tokens {
        private let scalars: [Unicode.Scalar]
        private var index = 0

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
        }

        mutating func next() -> String? {
            while index < scalars.count, Self.isSpace(scalars[index]) { index += 1 }
            guard index < scalars.count else { return nil }
            var word = String.UnicodeScalarView()
            if scalars[index] == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\", index + 1 < scalars.count {
                        index += 1
                        switch scalars[index] {
                        case "n": word.append("\n")
                        case "r": word.append("\r")
                        case "t": word.append("\t")
                        default: word.append(scalars[index])
                        }
                    } else {
                        word.append(scalars[index])
                    }
                    index += 1
                }
                index += 1
            } else {
                while index < scalars.count, !Self.isSpace(scalars[index]) {
                    word.append(scalars[index])
                    index += 1
                }
            }
            return String(word)
        }

        /// Skips a `macdef`'s name and body, which ends at the first empty line.
        mutating func skipMacro() {
            while index < scalars.count {
                if scalars[index] == "\n", index + 1 < scalars.count, scalars[index + 1] == "\n" {
                    index += 2
                    return
                }
                index += 1
            }
        }

        private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
        }
    }
}
