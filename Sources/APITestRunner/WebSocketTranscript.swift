import APITestHTTP

/// The frames of a WebSocket conversation as text, one line a frame (`> text "hello"`, `< ping 0 bytes`), for the
/// step's exchange: reports show it as the response body's preview, masked and cut where the step is sealed.
enum WebSocketTranscript {
    /// The most characters of one frame's payload a line shows.
    static let payloadLimit = 300

    /// The lines of `records`: `>` for a frame sent, `<` for one received.
    static func text(of records: [WebSocketConnection.FrameRecord]) -> String {
        records.map(line).joined(separator: "\n")
    }

    /// One frame's line.
    static func line(_ record: WebSocketConnection.FrameRecord) -> String {
        var line = record.direction == .sent ? "> " : "< "
        line += record.opcode.name
        switch record.opcode {
        case .close:
            if record.payload.count >= 2 {
                let code = UInt16(record.payload[0]) << 8 | UInt16(record.payload[1])
                line += " \(code)"
                let reason = String(decoding: record.payload[2...], as: UTF8.self)
                if !reason.isEmpty { line += " " + quoted(reason) }
            }
        case .binary:
            line += " \(record.length) bytes"
            if !record.payload.isEmpty {
                line += ": " + record.payload.prefix(32).map { hex($0) }.joined() + (record.length > 32 ? "…" : "")
            }
        default:
            if let text = String(validating: record.payload, as: UTF8.self) {
                line += " " + quoted(text.count > payloadLimit ? String(text.prefix(payloadLimit)) + "…" : text)
                if record.length > record.payload.count || text.count > payloadLimit {
                    line += " (\(record.length) bytes)"
                }
            } else {
                line += " \(record.length) bytes"
            }
        }
        if !record.fin { line += " (more fragments follow)" }
        return line
    }

    /// `text` in double quotes, its line breaks, quotes and backslashes escaped so each frame stays on its line.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
