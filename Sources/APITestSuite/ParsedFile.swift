import APITestSupport

/// One YAML file being parsed: the suite itself, or a file it includes.
final class ParsedFile {
    /// The path shown in locations: as given to the loader for the suite, as named from the current directory for
    /// an included file.
    let path: String
    /// The file's directory; relative file names in it resolve against it.
    let directory: String
    let document: YAMLDocument
    /// The document's root; `nil` for an empty file.
    let root: YAMLNode?
    let source: String
    /// The include chain of this file, to report include cycles: empty for the suite itself; for an included
    /// file, the canonical paths of the suite and of each include down to this file.
    let includeChain: [String]
    /// How many errors had been reported when this file's parsing began, so that a check can ask whether this file
    /// (with the files it includes) has errors.
    let errorBaseline: Int

    /// The source indexed by Unicode scalars; built on first use (quoted values, placeholders, some errors).
    private(set) lazy var text = SourceText(file: path, text: source)
    /// True when libyaml's marks count lines and columns as `text` does (see `SourceText.marksMatchLibyaml`).
    private(set) lazy var marksMatchText = SourceText.marksMatchLibyaml(in: source)

    /// A file composed into `document`.
    init(
        path: String, directory: String, document: YAMLDocument, root: YAMLNode?, source: String,
        includeChain: [String], errorBaseline: Int
    ) {
        self.path = path
        self.directory = directory
        self.document = document
        self.root = root
        self.source = source
        self.includeChain = includeChain
        self.errorBaseline = errorBaseline
    }
}
