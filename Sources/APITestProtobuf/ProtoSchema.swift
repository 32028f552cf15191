import APITestSupport

/// The message types, enums and services of a set of `.proto` files, with every type name resolved: what a suite
/// loads once and then encodes requests and decodes responses with.
///
/// Built from a `FileDescriptorSet` (``init(fileDescriptorSet:)``, what ``ProtocRunner`` returns) or from the
/// `FileDescriptorProto`s gRPC reflection answers with (``init(fileDescriptorProtos:)``). A name is resolved as
/// `protoc` resolves it: fully qualified (`.acme.User`) or relative to the scope it is written in, innermost first.
package struct ProtoSchema: Sendable {
    /// The files, in the order given.
    package private(set) var files: [ProtoFileDescriptor] = []
    /// Every message, nested ones included, by full name.
    package private(set) var messages: [String: ProtoMessageDescriptor] = [:]
    /// Every enum, nested ones included, by full name.
    package private(set) var enums: [String: ProtoEnumDescriptor] = [:]
    /// Every service by full name.
    package private(set) var services: [String: ProtoServiceDescriptor] = [:]

    /// The schema of a `FileDescriptorSet`'s files.
    package init(fileDescriptorSet bytes: [UInt8]) throws(ProtobufError) {
        try self.init(decoded: ProtoDescriptorDecoder.decodeSet(bytes))
    }

    /// The schema of serialized `FileDescriptorProto`s (a reflection answer's `file_descriptor_proto` entries). A
    /// file given twice (reflection answers repeat shared imports) is kept once.
    package init(fileDescriptorProtos: [[UInt8]]) throws(ProtobufError) {
        var decoded: [ProtoDescriptorDecoder.DecodedFile] = []
        for bytes in fileDescriptorProtos {
            decoded.append(try ProtoDescriptorDecoder.decodeFile(bytes[...]))
        }
        try self.init(decoded: decoded)
    }

    /// The schema of decoded files.
    package init(decoded: [ProtoDescriptorDecoder.DecodedFile]) throws(ProtobufError) {
        var seenFiles = Set<String>()
        var pendingServices: [ProtoServiceDescriptor] = []
        var scopes: [String: String] = [:]
        for file in decoded where seenFiles.insert(file.file.name).inserted || file.file.name.isEmpty {
            files.append(file.file)
            for message in file.messages {
                guard messages[message.fullName] == nil, enums[message.fullName] == nil else {
                    throw ProtobufError(.duplicateName(message.fullName))
                }
                messages[message.fullName] = message
            }
            for value in file.enums {
                guard messages[value.fullName] == nil, enums[value.fullName] == nil else {
                    throw ProtobufError(.duplicateName(value.fullName))
                }
                enums[value.fullName] = value
            }
            for service in file.services {
                guard services[service.fullName] == nil else { throw ProtobufError(.duplicateName(service.fullName)) }
                pendingServices.append(service)
                scopes[service.fullName] = file.file.package
            }
        }
        try resolveFields()
        for var service in pendingServices {
            let scope = scopes[service.fullName] ?? ""
            for index in service.methods.indices {
                let method = service.methods[index]
                let from = "\(service.fullName)/\(method.name)"
                service.methods[index].inputType = try resolveMessage(method.inputType, scope: scope, from: from)
                service.methods[index].outputType = try resolveMessage(method.outputType, scope: scope, from: from)
            }
            services[service.fullName] = service
        }
    }

    // MARK: - Resolution

    private mutating func resolveFields() throws(ProtobufError) {
        for name in messages.keys.sorted() {
            guard var message = messages[name] else { continue }
            var changed = false
            for index in message.fields.indices {
                let field = message.fields[index]
                guard let written = field.typeName,
                    field.type == .message || field.type == .enumeration
                        || field.type == .group
                else { continue }
                let from = "\(name).\(field.name)"
                let resolved = try resolve(written, scope: name, from: from)
                message.fields[index].typeName = resolved
                if enums[resolved] != nil {
                    message.fields[index].type = .enumeration
                } else if field.type == .enumeration {
                    throw ProtobufError(.unresolvedType(name: written, referencedFrom: from, suggestion: nil))
                }
                changed = true
            }
            if changed {
                message.reindex()
                messages[name] = message
            }
        }
    }

    private func resolveMessage(_ written: String, scope: String, from: String) throws(ProtobufError) -> String {
        let resolved = try resolve(written, scope: scope, from: from)
        guard messages[resolved] != nil else {
            throw ProtobufError(.unresolvedType(name: written, referencedFrom: from, suggestion: nil))
        }
        return resolved
    }

    /// The full name `written` stands for in `scope` (a message's or a package's full name).
    private func resolve(_ written: String, scope: String, from: String) throws(ProtobufError) -> String {
        func exists(_ name: String) -> Bool { messages[name] != nil || enums[name] != nil }
        if written.hasPrefix(".") {
            let name = String(written.dropFirst())
            if exists(name) { return name }
        } else {
            var scope = Substring(scope)
            while true {
                let candidate = scope.isEmpty ? written : "\(scope).\(written)"
                if exists(candidate) { return candidate }
                guard let dot = scope.lastIndex(of: ".") else {
                    if scope.isEmpty { break }
                    scope = ""
                    continue
                }
                scope = scope[..<dot]
            }
        }
        // The nearest declared type by short name (`Mesage` → `acme.Message`), named in full.
        var byShortName: [String: String] = [:]
        for name in Array(messages.keys) + Array(enums.keys) {
            let short = String(name.split(separator: ".").last ?? "")
            if let known = byShortName[short], known < name { continue }
            byShortName[short] = name
        }
        let suggestion = Suggestion.closest(
            to: String(written.split(separator: ".").last ?? ""), amongUnordered: byShortName.keys
        ).flatMap { byShortName[$0] }
        throw ProtobufError(.unresolvedType(name: written, referencedFrom: from, suggestion: suggestion))
    }

    // MARK: - Lookup

    /// The message named `name` (full name, a leading dot allowed).
    package func message(named name: String) throws(ProtobufError) -> ProtoMessageDescriptor {
        let name = name.hasPrefix(".") ? String(name.dropFirst()) : name
        if let message = messages[name] { return message }
        throw ProtobufError(
            .unknownMessage(name: name, suggestion: Suggestion.closest(to: name, amongUnordered: messages.keys)))
    }

    /// The method `package.Service/Method` (a leading slash, as in a gRPC path, allowed; `package.Service.Method`
    /// too, as grpcurl writes it). Unknown services and methods get did-you-mean suggestions.
    package func method(_ reference: String) throws(ProtobufError) -> ProtoMethodDescriptor {
        var text = Substring(reference)
        if text.hasPrefix("/") { text = text.dropFirst() }
        let serviceName: Substring
        let methodName: Substring
        if let slash = text.lastIndex(of: "/") {
            serviceName = text[..<slash]
            methodName = text[text.index(after: slash)...]
        } else if let dot = text.lastIndex(of: ".") {
            serviceName = text[..<dot]
            methodName = text[text.index(after: dot)...]
        } else {
            throw ProtobufError(.invalidMethodReference(reference))
        }
        guard !serviceName.isEmpty, !methodName.isEmpty, !methodName.contains("/") else {
            throw ProtobufError(.invalidMethodReference(reference))
        }
        guard let service = services[String(serviceName)] else {
            throw ProtobufError(
                .unknownService(
                    name: String(serviceName),
                    suggestion: Suggestion.closest(to: String(serviceName), amongUnordered: services.keys)))
        }
        guard let method = service.methods.first(where: { $0.name == methodName }) else {
            throw ProtobufError(
                .unknownMethod(
                    service: service.fullName, method: String(methodName),
                    suggestion: Suggestion.closest(to: String(methodName), in: service.methods.map(\.name))))
        }
        return method
    }

    /// Every method of every service, sorted by path (for a coverage report or a listing).
    package var allMethods: [ProtoMethodDescriptor] {
        services.values.flatMap(\.methods).sorted { $0.path < $1.path }
    }
}
