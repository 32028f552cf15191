/// The response decoders a suite can name in `response.decoders`, in the standard order: the one list, used by the
/// suite loader (names, suggestions, the reference docs' tests) and by the HTTP layer's serializer chain.
public enum ResponseDecoderName: String, Sendable, Hashable, CaseIterable {
    case json, xml, plist, image, text, binary
}
