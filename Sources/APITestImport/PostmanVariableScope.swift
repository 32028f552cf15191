import APITestSuiteWriting
import Foundation

/// Postman's variables as apitest sees them: the names and values of the suite's `variables`, and every text of the
/// collection with its `{{name}}` placeholders rewritten as apitest placeholders (`{{ name }}`).
///
/// Postman resolves a name in the narrowest scope that has it: global < collection < environment < data < local
/// (learning.postman.com, "Variable scopes"). Globals, collection and environment variables become suite variables,
/// the narrower value winning; a folder's or request's own variables (`variable` in the file) are written into the
/// texts of its requests. Names apitest cannot spell (`Global Foo`) are renamed predictably (`Global_Foo`), and
/// values Postman marks secret, or whose names say they hold a credential (``CredentialNames``), are read from the
/// environment instead (`{{ env.API_KEY }}`). A name no scope defines
/// and no script captures becomes an empty suite variable, with a note, as Postman sends such a placeholder as it is.
package struct PostmanVariableScope: Sendable {
    /// The merged variables by Postman name: the winning value and whether it is secret.
    private var values: [String: PostmanVariable] = [:]
    /// The Postman names, in the order they were first defined (globals, collection, environment).
    private var order: [String] = []
    /// Postman name → apitest name.
    private var names: [String: String] = [:]
    /// apitest names taken.
    private var taken: Set<String> = []
    /// Defined names that a text used.
    private var used: Set<String> = []
    /// Names used but defined nowhere, in first-use order.
    private(set) var undefined: [String] = []
    /// Dynamic variables (`$randomFirstName`) apitest has no built-in for, in first-use order.
    private(set) var unsupportedDynamic: [String] = []
    /// Names that scripts capture (they need no suite variable).
    package var captured: Set<String> = []
    /// Notes about renamed and undefined variables, and dynamic variables, in the order found.
    package private(set) var notes: [(location: String, text: String)] = []
    /// Credentials typed into auth settings and credential headers as values (not as `{{variable}}`): each is read
    /// from an environment variable of its own (``HARSecrets``, the mechanism every importer shares), never written
    /// into the suite.
    var typedSecrets = HARSecrets()

    /// The scope of `globals` < `collection` < `environment`.
    package init(globals: [PostmanVariable], collection: [PostmanVariable], environment: [PostmanVariable]) {
        for variable in globals + collection + environment {
            if values[variable.key] == nil { order.append(variable.key) }
            values[variable.key] = variable
        }
        // Names apitest can spell keep them, whichever is met first, so that renaming is predictable.
        for key in order where Self.isValidName(key) {
            names[key] = key
            taken.insert(key)
        }
        // A typed credential never takes the environment variable of a secret variable.
        for key in order where values[key].map(Self.isSecret) ?? false {
            typedSecrets.reserve(Self.environmentName(for: key))
        }
    }

    /// Whether apitest can spell `name` as a variable name: `[A-Za-z_][A-Za-z0-9_.-]*`, not starting with `env.`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
        return !name.hasPrefix("env.") && name.unicodeScalars.allSatisfy(isNameCharacter)
    }

    // MARK: - Names

    /// The apitest name of the Postman variable `name`: itself when apitest can spell it, else with every other
    /// character replaced by `_` (and `_` before a leading digit), numbered when that is taken.
    package mutating func name(for postmanName: String) -> String {
        if let known = names[postmanName] { return known }
        var base = String(
            postmanName.unicodeScalars.map { Self.isNameCharacter($0) ? Character($0) : "_" })
        if base.isEmpty { base = "_" }
        if let first = base.unicodeScalars.first, !(Self.isLetter(first) || first == "_") { base = "_" + base }
        if base.hasPrefix("env.") { base = "_" + base }
        var candidate = base
        var counter = 2
        while taken.contains(candidate) {
            candidate = "\(base)_\(counter)"
            counter += 1
        }
        taken.insert(candidate)
        names[postmanName] = candidate
        if candidate != postmanName {
            notes.append(
                (
                    location: "variable '\(postmanName)'",
                    text: "renamed '\(candidate)' (apitest names are letters, digits, '_', '.' and '-')"
                ))
        }
        return candidate
    }

    /// An ASCII letter.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }

    /// A character of an apitest variable name: `[A-Za-z0-9_.-]`.
    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || (scalar >= "0" && scalar <= "9") || scalar == "_" || scalar == "." || scalar == "-"
    }

    /// The environment variable that holds the secret Postman variable `name`: upper case, words of a camel-case
    /// name separated by `_` (`apiToken` → `API_TOKEN`), `_` for every other character.
    package static func environmentName(for postmanName: String) -> String {
        var result = ""
        var previous: Unicode.Scalar?
        for scalar in postmanName.unicodeScalars {
            let isUpper = scalar >= "A" && scalar <= "Z"
            if isUpper, let previous, (previous >= "a" && previous <= "z") || (previous >= "0" && previous <= "9") {
                result += "_"
            }
            result += isLetter(scalar) || (scalar >= "0" && scalar <= "9") ? String(scalar).uppercased() : "_"
            previous = scalar
        }
        if let first = result.unicodeScalars.first, first >= "0" && first <= "9" { result = "_" + result }
        return result.isEmpty ? "_" : result
    }

    // MARK: - Texts

    /// `text` with each `{{name}}` rewritten: a local variable (`local`, the folder's and request's own) by its value,
    /// a dynamic variable by its apitest built-in, any other name by its apitest placeholder. The rest of the text is
    /// data: placeholder syntax in it is escaped (``TemplateLiteral``), so that the suite sends it as Postman does.
    /// With `escaping` false (a field or header name, which the suite does not read as a template), it is left as it
    /// is.
    package mutating func convert(_ text: String, local: [String: String] = [:], escaping: Bool = true) -> String {
        let pieces = convert(text, local: local, depth: 0)
        guard escaping else {
            return pieces.map {
                switch $0 {
                case .literal(let text), .placeholder(let text): text
                }
            }.joined()
        }
        return TemplateLiteral.joined(pieces)
    }

    /// ``convert(_:local:escaping:)``'s pieces, with the nesting depth of local values, so that a local variable that
    /// names itself ends.
    private mutating func convert(_ text: String, local: [String: String], depth: Int) -> [TemplateLiteral.Piece] {
        guard text.contains("{{") else { return [.literal(text)] }
        var result: [TemplateLiteral.Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            result.append(.literal(String(rest[..<open.lowerBound])))
            let tail = rest[open.upperBound...]
            guard let close = tail.range(of: "}}"), !tail[..<close.lowerBound].contains("{") else {
                result.append(.literal("{{"))
                rest = tail
                continue
            }
            let name = String(tail[..<close.lowerBound])
            rest = tail[close.upperBound...]
            if let value = local[name], depth < 10 {
                result += convert(value, local: local, depth: depth + 1)
            } else if name.hasPrefix("$") {
                result.append(.placeholder(dynamic(name)))
            } else {
                use(name)
                result.append(.placeholder("{{ \(self.name(for: name)) }}"))
            }
        }
        result.append(.literal(String(rest)))
        return result
    }

    /// The placeholder of a dynamic variable: the apitest built-in that gives the same kind of value, else a suite
    /// variable of 16 random hex digits (noted).
    private mutating func dynamic(_ name: String) -> String {
        switch name {
        case "$guid", "$randomUUID": return "{{ random.uuid }}"
        case "$timestamp": return "{{ now.unix }}"
        case "$isoTimestamp": return "{{ now.iso }}"
        case "$randomInt":
            if !unsupportedDynamic.contains(name) {
                unsupportedDynamic.append(name)
                notes.append(
                    (
                        location: "{{$randomInt}}",
                        text:
                            "written as {{ random.int }}: a random integer from 0 to 2147483647, where Postman's is 0 to 1000"
                    ))
            }
            return "{{ random.int }}"
        default:
            let variable = self.name(for: String(name.dropFirst()))
            if !unsupportedDynamic.contains(name) {
                unsupportedDynamic.append(name)
                notes.append(
                    (
                        location: "{{\(name)}}",
                        text:
                            "apitest has no such built-in: the suite variable '\(variable)' holds 16 random hex digits instead"
                    ))
            }
            return "{{ \(variable) }}"
        }
    }

    /// Records a use of `name`: undefined unless some scope or script defines it.
    private mutating func use(_ name: String) {
        if values[name] != nil {
            used.insert(name)
        } else if !undefined.contains(name) {
            undefined.append(name)
        }
    }

    // MARK: - The suite's variables

    /// The suite's `variables`: every defined variable a text used, and every used name defined nowhere (empty),
    /// each after the variables its value uses (apitest reads a variable's placeholders from earlier variables only).
    /// Call it after converting every text.
    package mutating func suiteVariables() -> [(name: String, value: String)] {
        var converted: [String: String] = [:]
        var pending = order.filter { used.contains($0) }
        // Converting a value may use more names: repeat until nothing new is used.
        var index = 0
        while index < pending.count {
            let key = pending[index]
            let variable = values[key]!
            if Self.isSecret(variable) {
                converted[key] = "{{ env.\(Self.environmentName(for: key)) }}"
            } else {
                converted[key] = convert(variable.value)
            }
            for name in order where used.contains(name) && !pending.contains(name) { pending.append(name) }
            index += 1
        }
        var result: [(name: String, value: String)] = []
        var emitted: Set<String> = []
        var visiting: Set<String> = []
        func emit(_ key: String) {
            guard !emitted.contains(key), !visiting.contains(key), let value = converted[key] else { return }
            visiting.insert(key)
            for dependency in pending where dependency != key {
                if value.contains("{{ \(name(for: dependency)) }}") { emit(dependency) }
            }
            visiting.remove(key)
            emitted.insert(key)
            result.append((name(for: key), value))
        }
        for key in pending { emit(key) }
        for name in undefined where !captured.contains(name) {
            result.append((self.name(for: name), ""))
            notes.append(
                (
                    location: "variable '\(name)'",
                    text: "used but defined in no collection, environment or globals file: the suite gives it an empty "
                        + "value (set it with --var \(self.name(for: name))=...)"
                ))
        }
        for name in unsupportedDynamic where name != "$randomInt" {
            result.append((self.name(for: String(name.dropFirst())), "{{ random.hex }}"))
        }
        return result
    }

    /// Whether the suite reads `variable` from the environment: Postman marks it secret, or its name says it holds a
    /// credential (``CredentialNames``, the rule of every importer: `password`, `apiToken`, `client_secret`).
    static func isSecret(_ variable: PostmanVariable) -> Bool {
        variable.isSecret || CredentialNames.isCredential(variable.key)
    }

    /// The variables the suite reads from the environment, in the order they were defined: the Postman name and the
    /// environment variable's.
    package var secretVariables: [(name: String, environment: String)] {
        order.compactMap { key in
            guard let variable = values[key], Self.isSecret(variable), used.contains(key) else { return nil }
            return (key, Self.environmentName(for: key))
        }
    }

    /// The environment variables that secret Postman variables are read from.
    package var secretEnvironmentNames: [String] {
        secretVariables.map(\.environment)
    }
}
