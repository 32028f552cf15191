/// Values of the string formats OpenAPI documents use, valid and not.
enum FormatSamples {
    /// A random value of `format`, nil for a format not known here.
    static func valid(_ format: String, _ random: inout FuzzRandom) -> String? {
        func digits(_ count: Int, below bound: Int = 10) -> String {
            String((0..<count).map { _ in Character(String(random.below(bound))) })
        }
        func hex(_ count: Int) -> String {
            let alphabet = Array("0123456789abcdef")
            return String((0..<count).map { _ in random.pick(alphabet) })
        }
        switch format {
        case "date":
            return "20\(digits(1, below: 3))\(digits(1))-0\(1 + random.below(9))-1\(random.below(9))"
        case "date-time":
            return
                "20\(digits(1, below: 3))\(digits(1))-0\(1 + random.below(9))-1\(random.below(9))T1\(random.below(9)):"
                + "\(random.below(6))\(random.below(10)):\(random.below(6))\(random.below(10))Z"
        case "time":
            return "1\(random.below(9)):\(random.below(6))\(random.below(10)):\(random.below(6))\(random.below(10))Z"
        case "uuid":
            return "\(hex(8))-\(hex(4))-4\(hex(3))-a\(hex(3))-\(hex(12))"
        case "email", "idn-email":
            return "user\(digits(3))@example.com"
        case "uri", "url", "iri":
            return "https://example.com/\(hex(6))"
        case "uri-reference", "iri-reference":
            return "/items/\(hex(6))"
        case "hostname", "idn-hostname":
            return "host\(digits(2)).example.com"
        case "ipv4":
            return "10.\(random.below(256)).\(random.below(256)).\(1 + random.below(254))"
        case "ipv6":
            return "2001:db8::\(hex(4))"
        case "byte":
            return ["YWJj", "aGVsbG8=", "dGVzdA=="][random.below(3)]
        case "int32", "int64", "duration", "password", "binary", "regex", "json-pointer", "relative-json-pointer":
            return format == "duration" ? "P\(1 + random.below(9))D" : nil
        default:
            return nil
        }
    }

    /// A string that is no value of `format`, nil for a format not known here (or that every string keeps).
    static func invalid(_ format: String) -> String? {
        switch format {
        case "date": "2024-13-45"
        case "date-time": "2024-01-15 25:61"
        case "time": "25:99"
        case "uuid": "not-a-uuid"
        case "email", "idn-email": "not an email"
        case "uri", "iri": "not a uri"
        case "hostname", "idn-hostname": "-bad_host-"
        case "ipv4": "256.1.1.1"
        case "ipv6": "2001:db8:::zz"
        case "duration": "P1Y2Q"
        default: nil
        }
    }
}
