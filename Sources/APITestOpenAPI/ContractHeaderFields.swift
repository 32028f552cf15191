import APITestSupport

/// The header fields of a request or a response as the contract reads them: by name, compared without case.
///
/// The runner hands its own fields through this (``ContractRequest/init(method:url:fields:body:)``) rather than
/// a copy of them as pairs: a response's checks read one or two fields of the dozen it has.
package protocol ContractHeaderFields: Sendable {
    /// The values of the fields named `name` (compared without ASCII case), in order.
    func values(named name: String) -> [String]
    /// The value of the first field named `name`, if any.
    func first(named name: String) -> String?
    /// Every field, in order.
    var pairs: [(name: String, value: String)] { get }
}

/// Header fields given as a list of pairs.
struct ContractHeaderPairs: ContractHeaderFields {
    let pairs: [(name: String, value: String)]

    func values(named name: String) -> [String] {
        pairs.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    func first(named name: String) -> String? {
        pairs.first { $0.name.caseInsensitiveEquals(name) }?.value
    }
}
