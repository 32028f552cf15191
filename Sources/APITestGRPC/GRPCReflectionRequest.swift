package import APITestProtobuf

/// One request of gRPC's server reflection protocol (`grpc.reflection.v1.ServerReflectionRequest`; `v1alpha`'s is
/// the same message on the wire), encoded by hand with ``ProtoWireWriter``: no generated code.
///
/// The fields, from `reflection.proto`: `host` (1), and one of `file_by_filename` (3), `file_containing_symbol`
/// (4), `file_containing_extension` (5), `all_extension_numbers_of_type` (6) and `list_services` (7). The client
/// asks only for a file by name, the file that declares a symbol, and the list of services.
package enum GRPCReflectionRequest: Sendable, Hashable {
    /// `list_services`: the full names of the services the server offers.
    case listServices
    /// `file_by_filename`: the file of that name (`acme/common/types.proto`), and perhaps its imports.
    case fileByFilename(String)
    /// `file_containing_symbol`: the file that declares a fully qualified name (`acme.users.v1.Users`).
    case fileContainingSymbol(String)

    // MARK: - Field numbers

    private static let hostField = 1
    private static let fileByFilenameField = 3
    private static let fileContainingSymbolField = 4
    private static let listServicesField = 7

    // MARK: - Encoding

    /// The serialized message. `host` is sent when set (servers serving one host ignore it). `list_services`
    /// carries `*`, as gRPC's own clients send it; a oneof member is written even when empty, so the server sees
    /// which request it is.
    package func encoded(host: String? = nil) -> [UInt8] {
        var writer = ProtoWireWriter()
        if let host, !host.isEmpty {
            writer.writeTag(Self.hostField, .lengthDelimited)
            writer.writeLengthDelimited(Array(host.utf8))
        }
        switch self {
        case .listServices:
            writer.writeTag(Self.listServicesField, .lengthDelimited)
            writer.writeLengthDelimited(Array("*".utf8))
        case .fileByFilename(let name):
            writer.writeTag(Self.fileByFilenameField, .lengthDelimited)
            writer.writeLengthDelimited(Array(name.utf8))
        case .fileContainingSymbol(let symbol):
            writer.writeTag(Self.fileContainingSymbolField, .lengthDelimited)
            writer.writeLengthDelimited(Array(symbol.utf8))
        }
        return writer.bytes
    }

    /// The request as the protocol names it, for messages: `file_by_filename 'acme/types.proto'`.
    package var summary: String {
        switch self {
        case .listServices: "list_services"
        case .fileByFilename(let name): "file_by_filename '\(name)'"
        case .fileContainingSymbol(let symbol): "file_containing_symbol '\(symbol)'"
        }
    }
}
