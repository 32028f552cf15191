// MARK: - The file's digest

extension Suite {
    /// The SHA-256 of the suite file's text (hex), set by the loader: which version of the file a run ran. Computed
    /// when first read (``SourceDigest``); `""` for a suite that was not loaded from a file.
    package var sourceDigest: String {
        get { digestOfSource.hex }
        set { digestOfSource = SourceDigest(hex: newValue) }
    }
}
