/// The facts read from an image's header.
public struct ImageInfo: Sendable, Hashable, CustomStringConvertible {
    /// `png`, `jpeg`, `gif`, `webp` or `bmp`.
    public var format: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    public init(format: String, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// "png 640x480".
    public var description: String { "\(format) \(width)x\(height)" }
}
