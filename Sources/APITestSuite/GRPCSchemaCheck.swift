import APITestJSON
package import APITestProtobuf
package import APITestSupport
import Foundation
import Synchronization

/// What the suite loader does for `grpc:` steps once the suite is parsed: compiles the suite's `.proto` files
/// (once per set of files in a process, ``GRPCSchemaStore``) and checks every `grpc:` step against them: the method
/// (did-you-mean for an unknown service or method), whether `message` or `messages` fits its streaming shape, and
/// the field and enum names of its messages (literal messages are encoded whole; in a templated one the names
/// written literally are checked). With `reflection: true` these checks happen at run time, located at the step.
package enum GRPCSchemaCheck {
    /// Loads the schema of `suite.grpc` and checks the suite's `grpc:` steps, reporting problems in `context`. With
    /// `testsMayCallGRPC` false (the caller knows no test has a `grpc:` step), only setup and teardown are scanned
    /// for one.
    static func check(_ suite: inout Suite, in context: SuiteParseContext, testsMayCallGRPC: Bool = true) {
        // By index (`containsStep`): copying each test out of the array cost more than the rest of this check.
        let hasCalls =
            testsMayCallGRPC
            ? suite.containsStep(where: \.isGRPCCall)
            : suite.setup.contains(where: \.isGRPCCall) || suite.teardown.contains(where: \.isGRPCCall)
        guard hasCalls || suite.grpc != nil else { return }
        guard let setting = suite.grpc else {
            for step in allCalls(of: suite) {
                context.error(
                    "a grpc step needs the suite's message types: add grpc: {proto: [api.proto]} or grpc: "
                        + "{reflection: true} at the suite's top level", at: step.location)
                return
            }
            return
        }
        guard !setting.protoFiles.isEmpty else { return }
        let schema: ProtoSchema
        switch GRPCSchemaStore.shared.schema(
            files: setting.protoFiles, importPaths: setting.importPaths, directory: context.directory)
        {
        case .success(let loaded): schema = loaded
        case .failure(let error):
            if let location = error.location {
                let absolute = FilePaths.absolute(location.file, relativeTo: context.directory)
                context.error(
                    "\(error.message)",
                    at: SourceLocation(file: absolute, line: location.line, column: location.column))
            } else {
                context.error("the suite's .proto files do not compile: \(error.message)", at: setting.location)
            }
            return
        }
        suite.grpcSchema = SuiteGRPCSchema(schema: schema, setting: setting)
        suite.setup = suite.setup.map { resolve($0, schema: schema, in: context) }
        suite.teardown = suite.teardown.map { resolve($0, schema: schema, in: context) }
        for index in suite.tests.indices {
            suite.tests[index].steps = suite.tests[index].steps.map { resolve($0, schema: schema, in: context) }
        }
    }

    private static func allCalls(of suite: Suite) -> [GRPCSpec] {
        (suite.setup + suite.tests.flatMap(\.steps) + suite.teardown).compactMap(\.grpc)
    }

    /// `step` with its method resolved against `schema`; problems reported.
    private static func resolve(_ step: Step, schema: ProtoSchema, in context: SuiteParseContext) -> Step {
        guard let spec = step.grpc else { return step }
        let method: ProtoMethodDescriptor
        do throws(ProtobufError) {
            method = try schema.method(spec.method)
        } catch {
            context.error(error.message, at: spec.methodLocation)
            return step
        }
        var step = step
        step.grpc?.resolved = method
        for problem in problems(of: spec, method: method, schema: schema) {
            context.error(problem.message, at: problem.location)
        }
        return step
    }

    // MARK: - Checks shared with run time

    /// A problem of a call against its method, located.
    package struct Problem {
        /// What is wrong.
        package var message: String
        /// Where.
        package var location: SourceLocation
    }

    /// What does not fit `method` in `spec`: its streaming shape, and the names in its messages.
    package static func problems(of spec: GRPCSpec, method: ProtoMethodDescriptor, schema: ProtoSchema) -> [Problem] {
        var problems: [Problem] = []
        let name = "\(method.serviceName)/\(method.name)"
        if method.clientStreaming, !spec.isMessageList, !spec.messages.isEmpty {
            problems.append(
                Problem(
                    message: "\(name) is \(method.serverStreaming ? "bidirectional" : "client-streaming"): write its "
                        + "request messages as 'messages: [...]'", location: spec.messages[0].location))
        }
        if !method.clientStreaming, spec.isMessageList {
            problems.append(
                Problem(
                    message: "\(name) takes one request message: write it as 'message: {...}', not 'messages'",
                    location: spec.location))
        }
        for message in spec.messages {
            if let problem = problem(of: message.value, as: method.inputType, schema: schema) {
                problems.append(Problem(message: problem.description, location: message.location))
            }
        }
        return problems
    }

    /// The first problem of a message: a literal one is encoded whole; in a templated one the field names and the
    /// enum names written literally are checked.
    static func problem(of value: TemplateValue, as type: String, schema: ProtoSchema) -> ProtobufError? {
        if value.isLiteral, let json = try? value.render(TemplateContext()) {
            do throws(ProtobufError) {
                _ = try schema.encode(json, as: type)
                return nil
            } catch {
                return error
            }
        }
        guard let message = try? schema.message(named: type) else { return nil }
        return names(in: value, of: message, path: "$", schema: schema)
    }

    /// The first unknown field or enum name written literally in `value`, a message of `message`.
    private static func names(
        in value: TemplateValue, of message: ProtoMessageDescriptor, path: String, schema: ProtoSchema
    ) -> ProtobufError? {
        guard case .object(let members) = value, !message.fullName.hasPrefix("google.protobuf.") else { return nil }
        for member in members {
            let memberPath = "\(path).\(member.key)"
            guard let field = message.field(named: member.key) else {
                return ProtobufError(
                    .unknownField(
                        name: member.key, message: message.fullName,
                        suggestion: Suggestion.closest(to: member.key, in: message.fields.map(\.jsonName))),
                    path: memberPath)
            }
            let entry = field.typeName.flatMap { schema.messages[$0] }
            if let entry, entry.isMapEntry, let valueField = entry.field(number: 2) {
                guard case .object(let items) = member.value else { continue }
                for item in items {
                    if let problem = single(item.value, field: valueField, path: "\(memberPath).\(item.key)", schema) {
                        return problem
                    }
                }
            } else if field.isRepeated, case .array(let items) = member.value {
                for (index, item) in items.enumerated() {
                    if let problem = single(item, field: field, path: "\(memberPath)[\(index)]", schema) {
                        return problem
                    }
                }
            } else if let problem = single(member.value, field: field, path: memberPath, schema) {
                return problem
            }
        }
        return nil
    }

    /// The first problem of one value of `field`.
    private static func single(
        _ value: TemplateValue, field: ProtoFieldDescriptor, path: String, _ schema: ProtoSchema
    ) -> ProtobufError? {
        guard let typeName = field.typeName else { return nil }
        if let enumType = schema.enums[typeName], case .string(let template) = value, template.isLiteral {
            let text = template.source
            guard enumType.value(named: text) == nil, Int32(text) == nil else { return nil }
            return ProtobufError(
                .unknownEnumValue(
                    value: text, enumName: enumType.fullName,
                    suggestion: Suggestion.closest(to: text, in: enumType.values.map(\.name))),
                path: path)
        }
        if let message = schema.messages[typeName] { return names(in: value, of: message, path: path, schema: schema) }
        return nil
    }
}

// MARK: - GRPCSchemaStore

/// The schemas `.proto` files compiled to in this process, each set of files compiled once however many suites
/// name it (suites load in parallel: the first compiles, the others wait).
final class GRPCSchemaStore: Sendable {
    /// The store of the process.
    static let shared = GRPCSchemaStore()

    private struct Key: Hashable {
        var files: [String]
        var importPaths: [String]
        var directory: String
    }

    /// Each set of files, compiled once.
    private let compilations = LoadOnceCache<Key, Result<ProtoSchema, ProtobufError>>()

    /// The schema of `files` (relative to `directory`) with `importPaths` (absolute; empty for `directory`).
    func schema(files: [String], importPaths: [String], directory: String) -> Result<ProtoSchema, ProtobufError> {
        compilations.value(for: Key(files: files, importPaths: importPaths, directory: directory)) { key in
            do throws(ProtobufError) {
                return .success(
                    try ProtocRunner().schema(
                        files: key.files, importPaths: key.importPaths, workingDirectory: key.directory))
            } catch {
                return .failure(error)
            }
        }
    }
}
