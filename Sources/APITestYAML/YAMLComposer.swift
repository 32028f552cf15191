internal import CYAML

/// Why a YAML text could not be composed. Lines and columns are 1-based; columns count Unicode scalars.
package enum YAMLComposeError: Error, Equatable {
    /// A problem libyaml's scanner or parser found, or one the composer found (an undefined alias, a second
    /// document); `context` says what was being read and where that started.
    case syntax(problem: String, line: Int, column: Int, context: Context?)
    /// A character libyaml's reader rejects. `offset` counts `Character`s from the start of the text, as Yams
    /// reports it, or is `nil` when libyaml's byte offset is not on a character boundary.
    case reader(problem: String, offset: Int?)
    /// The same key twice in one map: the key's text (`<uncovertable>` for a list or map key, as Yams writes it)
    /// and where it first appears.
    case duplicateKey(String, line: Int, column: Int)
    /// libyaml ran out of memory.
    case memory
    /// A collection opened deeper than `LoadBudget.maximumNesting` levels, where it starts.
    case tooDeep(line: Int, column: Int)
    /// A map whose list or map keys are too deep or too large to compare once aliases are expanded
    /// (`YAMLComposer.keyComparisonWork`), where the map starts.
    case keysTooLarge(line: Int, column: Int)

    /// What libyaml was reading when it found the problem.
    package struct Context: Equatable {
        package let text: String
        package let line: Int
        package let column: Int
    }
}

/// Composes a YAML text into a `YAMLDocument` with libyaml's event parser (Yams' own copy of libyaml).
///
/// The result and the errors are those of `Yams.compose(yaml:_:)` with `Resolver.basic`: one document (or none),
/// aliases resolved to their anchored nodes, duplicate keys in a map rejected (keys compare by text and tag,
/// lists and maps structurally), and the same problems at the same marks. Building flat tables instead of
/// `Yams.Node` values, and checking keys without hashing nodes, is what makes it fast.
package struct YAMLComposer: ~Copyable {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private let source: String
    package private(set) var document = YAMLDocument()
    /// The latest node registered under each anchor name (anchors may be redefined).
    private var anchors: [String: YAMLNode] = [:]
    /// The completed children of the collections being read, innermost last.
    private var pending: [YAMLNode] = []
    /// The collections being read, innermost last.
    private var open: [OpenCollection] = []
    /// What comparing list and map keys may still spend, one a node (see `keyComparisonWork`).
    private var keyComparisonWork = Self.keyComparisonWork

    /// The most list and map nodes compared to find duplicate keys in one document: linear work for any real file
    /// (most keys are scalars, compared by hashing), where aliases could make two keys 2^60 nodes each.
    package static let keyComparisonWork = 1_000_000

    private struct OpenCollection {
        package let node: YAMLNode
        /// Where its children start in `pending`.
        package let firstChild: Int
        package let anchor: String?
    }

    /// Composes the single document of `source`; the root is `nil` when the text holds no document.
    package static func compose(_ source: String) throws(YAMLComposeError) -> (document: YAMLDocument, root: YAMLNode?)
    {
        var bytes = source
        bytes.makeContiguousUTF8()
        return try bytes.withUTF8 { buffer in compose(buffer, of: source) }.get()
    }

    /// Composes the single document of `input`, the UTF-8 bytes of `source` or of a part of it (`source` names
    /// the characters of a reader error). The document's tables get room for a text of `reservedBytes` bytes
    /// (`input.count` when `nil`): the first part of a text composed in parts reserves for the whole text, so
    /// that the other parts are appended to its tables without moving them (`YAMLComposer.composeInParts`).
    package static func compose(
        _ input: UnsafeBufferPointer<UInt8>, of source: String, reservingFor reservedBytes: Int? = nil
    ) -> Result<(document: YAMLDocument, root: YAMLNode?), YAMLComposeError> {
        var composer = YAMLComposer(source: source, input: input, reservingFor: max(reservedBytes ?? 0, input.count))
        do throws(YAMLComposeError) {
            let root = try composer.composeDocument()
            composer.document.endScalarBytes()
            return .success((composer.document, root))
        } catch {
            return .failure(error)
        }
    }

    /// A composer reading `input`, which must stay valid while it is used.
    private init(source: String, input: UnsafeBufferPointer<UInt8>, reservingFor reservedBytes: Int) {
        self.source = source
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        event = .allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
        document.reserveCapacity(forTextOf: reservedBytes)
    }

    deinit {
        yaml_event_delete(event)
        yaml_parser_delete(parser)
        event.deallocate()
        parser.deallocate()
    }

    // MARK: - Documents

    /// The events a stream of one document makes, in the order Yams asks libyaml for them.
    private mutating func composeDocument() throws(YAMLComposeError) -> YAMLNode? {
        _ = try nextEvent() // stream start
        guard try nextEvent() != YAML_STREAM_END_EVENT else { return nil } // else document start
        let root = try composeNode(startingWith: try nextEvent())
        _ = try nextEvent() // document end
        if try nextEvent() != YAML_STREAM_END_EVENT {
            let mark = startMark()
            throw .syntax(
                problem: "but found another document", line: mark.line, column: mark.column,
                context: .init(text: "expected a single document in the stream", line: 1, column: 1))
        }
        return root
    }

    /// Reads one node, and everything inside it, from its first event.
    private mutating func composeNode(startingWith first: yaml_event_type_t) throws(YAMLComposeError) -> YAMLNode {
        var type = first
        while true {
            var completed: YAMLNode?
            switch type {
            case YAML_SCALAR_EVENT:
                completed = addScalar()
            case YAML_ALIAS_EVENT:
                completed = try resolveAlias()
            case YAML_SEQUENCE_START_EVENT:
                let start = event.pointee.data.sequence_start
                try openCollection(.sequence, anchor: start.anchor, tag: start.implicit != 0 ? nil : start.tag)
            case YAML_MAPPING_START_EVENT:
                let start = event.pointee.data.mapping_start
                try openCollection(.mapping, anchor: start.anchor, tag: start.implicit != 0 ? nil : start.tag)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                completed = try closeCollection()
            default:
                let mark = startMark()
                throw .syntax(problem: "unexpected event", line: mark.line, column: mark.column, context: nil)
            }
            if let completed {
                if open.isEmpty { return completed }
                pending.append(completed)
            }
            // `nextEvent()` inlined: a call of the typed-throwing function copied its error slot at every event.
            yaml_event_delete(event)
            guard yaml_parser_parse(parser, event) == 1 else { throw parserError() }
            type = event.pointee.type
        }
    }

    // MARK: - Nodes

    private mutating func addScalar() -> YAMLNode {
        let data = event.pointee.data.scalar
        let mark = startMark()
        var record = YAMLDocument.Record(kind: .scalar, line: Self.int32(mark.line), column: Self.int32(mark.column))
        record.style = YAMLDocument.Style(rawValue: UInt8(truncatingIfNeeded: data.style.rawValue)) ?? .any
        let (start, end) = (event.pointee.start_mark, event.pointee.end_mark)
        let isOneLineQuoted = (record.style == .singleQuoted || record.style == .doubleQuoted) && end.line == start.line
        record.count = Self.int32(data.length)
        record.start = Self.int32(document.appendScalarBytes(data.value, count: data.length))
        let node = document.append(record)
        if isOneLineQuoted {
            document.setWidth(Int(clamping: end.column) - Int(clamping: start.column), ofLast: node)
        }
        if data.quoted_implicit == 1 {
            document.setTag(YAMLDocument.strTag, ofLast: node)
        } else if let tag = data.tag {
            document.setTag(String(cString: tag), ofLast: node)
        }
        register(Self.name(data.anchor), node)
        return node
    }

    private func resolveAlias() throws(YAMLComposeError) -> YAMLNode {
        guard let name = Self.name(event.pointee.data.alias.anchor), let node = anchors[name] else {
            let mark = startMark()
            throw .syntax(problem: "found undefined alias", line: mark.line, column: mark.column, context: nil)
        }
        return node
    }

    /// Opens a collection, refusing one nested deeper than `LoadBudget.maximumNesting`: libyaml checks its whole
    /// stack of possible keys at every token, so a deep nesting costs it quadratic time (100,000 levels of `[`
    /// took 25 s), and every walk over the document would have as many levels to go through.
    private mutating func openCollection(
        _ kind: YAMLDocument.Kind, anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?
    ) throws(YAMLComposeError) {
        let mark = startMark()
        guard open.count < LoadBudget.maximumNesting else { throw .tooDeep(line: mark.line, column: mark.column) }
        let record = YAMLDocument.Record(kind: kind, line: Self.int32(mark.line), column: Self.int32(mark.column))
        let node = document.append(record)
        if let tag { document.setTag(String(cString: tag), ofLast: node) }
        open.append(OpenCollection(node: node, firstChild: pending.count, anchor: Self.name(anchor)))
        if open.count > document.deepestNesting { document.deepestNesting = open.count }
    }

    /// Moves the children of the innermost open collection into the document, checks a map's keys, and returns the
    /// collection.
    private mutating func closeCollection() throws(YAMLComposeError) -> YAMLNode? {
        guard let collection = open.popLast() else { return nil }
        let index = Int(collection.node.index)
        let childCount = pending.count - collection.firstChild
        let start = document.children.count
        document.records[index].start = Self.int32(start)
        document.records[index].count = Self.int32(childCount)
        document.children.append(contentsOf: pending[collection.firstChild...])
        pending.removeLast(childCount)
        if document.records[index].kind == .mapping {
            let keys = start..<(start + childCount)
            // Nearly every map: untagged scalar keys, all distinct, marked in one pass.
            if document.markDistinctPlainKeys(in: keys) {
                register(collection.anchor, collection.node)
                return collection.node
            }
            document.markKeys(in: keys)
            let duplicate: YAMLNode?
            do {
                duplicate = try document.firstDuplicateKey(in: keys, work: &keyComparisonWork)
            } catch {
                let mark = document.mark(of: collection.node)
                throw .keysTooLarge(line: mark.line, column: mark.column)
            }
            if let duplicate {
                let mark = document.mark(of: duplicate)
                let text = document.scalar(duplicate)?.string ?? "<uncovertable>"
                throw .duplicateKey(text, line: mark.line, column: mark.column)
            }
        }
        register(collection.anchor, collection.node)
        return collection.node
    }

    private mutating func register(_ anchor: String?, _ node: YAMLNode) {
        if let anchor { anchors[anchor] = node }
    }

    // MARK: - libyaml

    /// Parses the next event into `event` (freeing the previous one) and returns its type.
    private func nextEvent() throws(YAMLComposeError) -> yaml_event_type_t {
        yaml_event_delete(event)
        guard yaml_parser_parse(parser, event) == 1 else { throw parserError() }
        return event.pointee.type
    }

    private func startMark() -> (line: Int, column: Int) {
        let mark = event.pointee.start_mark
        return (Int(clamping: mark.line) &+ 1, Int(clamping: mark.column) &+ 1)
    }

    /// libyaml's error, as Yams reports it.
    private func parserError() -> YAMLComposeError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? ""
        switch state.error {
        case YAML_READER_ERROR:
            let utf8 = source.utf8
            let index = utf8.index(utf8.startIndex, offsetBy: state.problem_offset, limitedBy: utf8.endIndex)?
                .samePosition(in: source)
            return .reader(problem: problem, offset: index.map { source.distance(from: source.startIndex, to: $0) })
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            let context = state.context.map { text in
                YAMLComposeError.Context(
                    text: String(cString: text), line: Int(clamping: state.context_mark.line) &+ 1,
                    column: Int(clamping: state.context_mark.column) &+ 1)
            }
            return .syntax(
                problem: problem, line: Int(clamping: state.problem_mark.line) &+ 1,
                column: Int(clamping: state.problem_mark.column) &+ 1, context: context)
        default:
            return .memory
        }
    }

    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func int32(_ value: Int) -> Int32 { Int32(clamping: value) }
}
