import APITestJSON

// MARK: - The status to expect

extension OperationPlanner {
    /// `expect.status` and what goes with it.
    struct ExpectedStatus: Equatable {
        /// A code (`200`) or a class (`"2XX"`).
        var status: JSONValue
        /// `false` when the status is a redirect (so the response is not followed past it).
        var followRedirects: Bool?
        /// Why the status was chosen, when the document declares no success status.
        var note: String?
    }

    /// The status a test of an operation with these `responses` keys expects: the first 2xx code declared, else
    /// `2XX`, else the first 3xx code or `3XX` (not followed); `2XX` when only `default` (or nothing) is declared;
    /// nil when only other codes are.
    static func expectedStatus(_ keys: [String]) -> ExpectedStatus? {
        func code(_ key: String, hundreds: Int) -> Int? {
            guard key.count == 3, key.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(key),
                code / 100 == hundreds
            else { return nil }
            return code
        }
        func isRange(_ key: String, hundreds: Int) -> Bool {
            key.uppercased() == "\(hundreds)XX"
        }
        if let code = keys.lazy.compactMap({ code($0, hundreds: 2) }).first {
            return ExpectedStatus(status: .integer(Int64(code)))
        }
        if keys.contains(where: { isRange($0, hundreds: 2) }) { return ExpectedStatus(status: "2XX") }
        if let code = keys.lazy.compactMap({ code($0, hundreds: 3) }).first {
            return ExpectedStatus(status: .integer(Int64(code)), followRedirects: false)
        }
        if keys.contains(where: { isRange($0, hundreds: 3) }) {
            return ExpectedStatus(status: "3XX", followRedirects: false)
        }
        if keys.isEmpty || keys.contains("default") {
            let declared = keys.isEmpty ? "no responses" : "only 'default' and error statuses"
            return ExpectedStatus(status: "2XX", note: "the document declares \(declared): any 2xx is expected")
        }
        return nil
    }
}
