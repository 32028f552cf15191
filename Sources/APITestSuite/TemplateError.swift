package import APITestSupport
import APITestYAML

/// A template that cannot be parsed (`{{` without `}}`, a bad name) or rendered (an undefined name).
package struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Sendable, Hashable {
        /// The text is not a valid template; `offset` counts Unicode scalars from the start of the text.
        case syntax(offset: Int, length: Int)
        /// A placeholder names a variable that has no value (an `env.NAME` that is not set, too).
        case undefinedVariable(name: String)
        /// An expression's function or operator could not compute a value from the values it got.
        case evaluation
        /// The rendered text or value would pass `LoadBudget.maximumRenderedBytes`.
        case tooLarge
    }

    /// What went wrong.
    package var kind: Kind
    /// A sentence for people, quoting the values an expression met whole (a step's result masks each and then
    /// cuts it where it is sealed).
    package var text: MessageText
    /// Where the problem is, when known.
    package var location: SourceLocation?

    /// An error of `kind` saying `text`, at `location`.
    package init(kind: Kind, text: MessageText, location: SourceLocation? = nil) {
        self.kind = kind
        self.text = text
        self.location = location
    }

    /// An error of `kind` with `message`, quoting nothing, at `location`.
    package init(kind: Kind, message: String, location: SourceLocation? = nil) {
        self.init(kind: kind, text: MessageText(message), location: location)
    }

    /// A sentence for people, its quoted values cut, nothing masked.
    package var message: String {
        get { text.description }
        set { text = MessageText(newValue) }
    }

    package var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }

    /// The rendered text or value would pass `LoadBudget.maximumRenderedBytes`.
    static func tooLarge(at location: SourceLocation?) -> TemplateError {
        TemplateError(kind: .tooLarge, message: LoadBudget.renderedSizeText, location: location)
    }

    static func undefined(_ name: String, at location: SourceLocation?) -> TemplateError {
        let message =
            if let variable = TemplateScanner.environmentName(name) {
                "environment variable '\(variable)' is not set"
            } else {
                "undefined variable '\(name)'"
            }
        return TemplateError(kind: .undefinedVariable(name: name), message: message, location: location)
    }
}
