/// Content types by file extension: Linux has no system service for this (AFNetworking asks the OS), so apitest
/// carries its own table of the common types.
public enum MIMEType {
    public static let octetStream = "application/octet-stream"

    /// The content type for the extension of `path` (case-insensitive), or `application/octet-stream`.
    public static func forPath(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return octetStream }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? octetStream
    }

    static let byExtension: [String: String] = [
        // Text
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "csv": "text/csv",
        "tsv": "text/tab-separated-values",
        "html": "text/html", "htm": "text/html", "css": "text/css", "md": "text/markdown", "markdown": "text/markdown",
        "ics": "text/calendar", "vcf": "text/vcard", "rtf": "application/rtf",
        // Data
        "json": "application/json", "jsonld": "application/ld+json", "geojson": "application/geo+json",
        "ndjson": "application/x-ndjson", "xml": "application/xml", "yaml": "application/yaml",
        "yml": "application/yaml", "toml": "application/toml", "plist": "application/x-plist",
        "js": "text/javascript", "mjs": "text/javascript", "wasm": "application/wasm",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "bz2": "application/x-bzip2", "xz": "application/x-xz",
        "7z": "application/x-7z-compressed",
        "zst": "application/zstd", "bin": octetStream,
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "epub": "application/epub+zip", "apk": "application/vnd.android.package-archive",
        "pem": "application/x-pem-file", "crt": "application/x-x509-ca-cert", "der": "application/x-x509-ca-cert",
        "p12": "application/x-pkcs12", "pfx": "application/x-pkcs12",
        "proto": "text/plain", "pb": "application/x-protobuf", "avro": "application/avro",
        "parquet": "application/vnd.apache.parquet",
        // Images
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "bmp": "image/bmp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "tif": "image/tiff",
        "tiff": "image/tiff", "avif": "image/avif", "heic": "image/heic", "heif": "image/heif",
        // Audio and video
        "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "oga": "audio/ogg", "flac": "audio/flac",
        "m4a": "audio/mp4", "aac": "audio/aac", "opus": "audio/opus", "weba": "audio/webm",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mkv": "video/x-matroska",
        "avi": "video/x-msvideo", "ogv": "video/ogg", "mpeg": "video/mpeg", "mpg": "video/mpeg",
        // Fonts
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
    ]
}
