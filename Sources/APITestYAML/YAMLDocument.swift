/// A node of a `YAMLDocument`: the index of its record. Aliases resolve to the node they name, so an alias and its
/// anchor are the same node.
package struct YAMLNode: Hashable {
    package let index: Int32
}

/// One composed YAML document, held in flat tables: what the suite parsers need (scalars with their style, tag and
/// start mark; sequences; maps with their keys in order) without a tree of reference-counted values.
///
/// `YAMLComposer` builds it from libyaml's events. The children of a collection are stored contiguously in
/// `children` (a map's as key, value, key, value...), and the text of every scalar in `scalarBytes` (UTF-8, one
/// after the other), so walking a document allocates nothing and the tables hold no reference: a node costs 20
/// bytes and its scalar's bytes, and a `String` is made only for a scalar that is read.
package struct YAMLDocument {
    /// What a node is.
    package enum Kind: UInt8 {
        case scalar
        case sequence
        case mapping
    }

    /// How a scalar was written; the raw values are libyaml's (and Yams').
    package enum Style: UInt8 {
        case any = 0
        case plain
        case singleQuoted
        case doubleQuoted
        case literal
        case folded
    }

    /// The tags that decide how a scalar is typed (see `YAMLScalar`); every other tag types a scalar by its style.
    package enum CoreTag: UInt8 {
        case none
        case str
        case null
        case bool
        case int
        case float
    }

    /// A scalar node's text and how it was written.
    package struct Scalar {
        package let string: String
        package let style: Style
        /// The scalar's tag as YAML typing sees it: quoted scalars are `str`; so is any scalar used in a map key
        /// (Yams resolves the tags of keys when it checks them for duplicates, and aliases share that resolution).
        package let tag: CoreTag

        /// A scalar of `string`, written in `style`, typed as `tag`.
        @usableFromInline init(string: String, style: Style, tag: CoreTag) {
            self.string = string
            self.style = style
            self.tag = tag
        }
    }

    /// One node: its kind, start mark and contents (a scalar's bytes and tag, a collection's children), in 20 bytes.
    package struct Record {
        package var kind: Kind
        package var style: Style = .any
        /// True when the node is, or is inside, a map key (see `Scalar.tag`).
        package var isInKey = false
        /// Index into `tagNames`; -1 when the node has no tag, `Record.overflowTag` when its index is in
        /// `overflowTags` (a document with more distinct tags than an `Int16` counts).
        package var tag: Int16 = -1
        /// For a quoted scalar that ends on the line where it starts, its width in columns, quotes included (and an
        /// anchor or tag written before it); otherwise `Record.noWidth`; `Record.overflowWidth` when the width is
        /// in `overflowWidths`.
        package var width = Record.noWidth
        /// 1-based, as libyaml reports them plus one; columns count Unicode scalars.
        package var line: Int32
        package var column: Int32
        /// A scalar's first byte in `scalarBytes`; a collection's first index in `children`.
        package var start: Int32 = 0
        /// A scalar's number of bytes; a collection's number of children (twice the number of entries for a map).
        package var count: Int32 = 0

        package static let noWidth = UInt16.max
        package static let overflowWidth = UInt16.max - 1
        package static let overflowTag: Int16 = -2
    }

    /// The tag `tag:yaml.org,2002:str`, which libyaml gives quoted scalars without a tag.
    package static let strTag = "tag:yaml.org,2002:str"
    /// The non-specific tag `!`.
    package static let nonSpecificTag = "!"

    package var records: [Record] = []
    /// The most collections open at once while it was composed (at most `LoadBudget.maximumNesting`).
    package var deepestNesting = 0
    /// The UTF-8 text of every scalar, in document order (while it is composed, followed by room not yet written:
    /// see `reserveCapacity(forTextOf:)`).
    package var scalarBytes: [UInt8] = []
    /// How many bytes of `scalarBytes` are scalars' text while the document is composed.
    private var scalarByteCount = 0
    package var children: [YAMLNode] = []
    /// The distinct tag names written in the document.
    package var tagNames: [String] = []
    /// The core tag of each of `tagNames`.
    package var coreTags: [CoreTag] = []
    /// The tag index of each node whose record says `Record.overflowTag`.
    package var overflowTags: [Int32: Int32] = [:]
    /// The width of each node whose record says `Record.overflowWidth`.
    package var overflowWidths: [Int32: Int] = [:]
    /// The index of each of `tagNames`, by name.
    private var tagIndexByName: [String: Int32] = [:]
    /// The tag name last looked up and its index.
    private var lastTag: (name: String, index: Int32)?

    // MARK: - Reading nodes

    @inlinable package func kind(of node: YAMLNode) -> Kind { records[Int(node.index)].kind }

    /// The 1-based line and column where the node starts.
    @inlinable package func mark(of node: YAMLNode) -> (line: Int, column: Int) {
        let record = records[Int(node.index)]
        return (Int(record.line), Int(record.column))
    }

    /// The scalar, or `nil` for a collection.
    @inlinable package func scalar(_ node: YAMLNode) -> Scalar? {
        let record = records[Int(node.index)]
        guard record.kind == .scalar else { return nil }
        return scalar(node, text: text(of: record))
    }

    /// The scalar of a scalar node whose text, `text(of:)`, is known already.
    @inlinable package func scalar(_ node: YAMLNode, text: String) -> Scalar {
        let record = records[Int(node.index)]
        var tag = CoreTag.none
        if let index = tagIndex(of: node) {
            tag = coreTags[index]
            if record.isInKey, tagNames[index] == Self.nonSpecificTag { tag = .str }
        } else if record.isInKey {
            tag = .str
        }
        return Scalar(string: text, style: record.style, tag: tag)
    }

    /// The number of bytes of a scalar node's text (0 for a collection), known without reading the text.
    @inlinable package func byteCount(of node: YAMLNode) -> Int {
        let record = records[Int(node.index)]
        return record.kind == .scalar ? Int(record.count) : 0
    }

    /// The text of a scalar's record.
    @inlinable package func text(of record: Record) -> String {
        let start = Int(record.start)
        return scalarBytes.withUnsafeBufferPointer { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(record.count))]), as: UTF8.self)
        }
    }

    /// The bytes of a scalar's record, for `body`.
    @inlinable package func withBytes<Result>(
        of record: Record, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let start = Int(record.start)
        return scalarBytes.withUnsafeBufferPointer { bytes in
            body(UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(record.count))]))
        }
    }

    /// The node's index in `tagNames`, or `nil` when it has no tag.
    @inlinable package func tagIndex(of node: YAMLNode) -> Int? {
        let tag = records[Int(node.index)].tag
        if tag >= 0 { return Int(tag) }
        if tag == Record.overflowTag, let index = overflowTags[node.index] { return Int(index) }
        return nil
    }

    /// The width of a quoted scalar written on one line, quotes included, in columns; `nil` for other nodes.
    @inlinable package func quotedWidth(of node: YAMLNode) -> Int? {
        switch records[Int(node.index)].width {
        case Record.noWidth: return nil
        case Record.overflowWidth: return overflowWidths[node.index]
        case let width: return Int(width)
        }
    }

    /// A sequence's items, or `nil` for another node.
    @inlinable package func items(of node: YAMLNode) -> ArraySlice<YAMLNode>? {
        let record = records[Int(node.index)]
        guard record.kind == .sequence else { return nil }
        return children[Int(record.start)..<Int(record.start + record.count)]
    }

    /// A map's keys and values in document order, or `nil` for another node.
    @inlinable package func pairs(of node: YAMLNode) -> Pairs? {
        let record = records[Int(node.index)]
        guard record.kind == .mapping else { return nil }
        return Pairs(nodes: children[Int(record.start)..<Int(record.start + record.count)])
    }

    /// A map's entries as (key, value) pairs, over the map's slice of `children`.
    package struct Pairs: RandomAccessCollection {
        package let nodes: ArraySlice<YAMLNode>

        /// The pairs of a map's slice of `children` (keys at even offsets).
        @usableFromInline init(nodes: ArraySlice<YAMLNode>) { self.nodes = nodes }

        @inlinable package var startIndex: Int { 0 }
        @inlinable package var endIndex: Int { nodes.count / 2 }
        @inlinable package var count: Int { nodes.count / 2 }

        /// The pairs in order. Its own iterator (not `IndexingIterator`), so that a loop over a map's pairs in
        /// another module runs this code inlined rather than the standard library's unspecialized generic one.
        @inlinable package func makeIterator() -> Iterator { Iterator(nodes: nodes, position: nodes.startIndex) }

        /// Walks a map's slice of `children` two nodes at a time.
        package struct Iterator: IteratorProtocol {
            @usableFromInline let nodes: ArraySlice<YAMLNode>
            @usableFromInline var position: Int

            @usableFromInline init(nodes: ArraySlice<YAMLNode>, position: Int) {
                self.nodes = nodes
                self.position = position
            }

            @inlinable package mutating func next() -> (key: YAMLNode, value: YAMLNode)? {
                guard position + 1 < nodes.endIndex else { return nil }
                defer { position += 2 }
                return (nodes[position], nodes[position + 1])
            }
        }

        @inlinable package subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) {
            let index = nodes.startIndex + position * 2
            return (nodes[index], nodes[index + 1])
        }
    }

    // MARK: - Building

    /// Reserves room for the nodes of a text of `byteCount` bytes, so that the tables grow (and are copied and
    /// touched anew) rarely. Suites take 7 to 10 bytes a node (a test written in flow style, `request: {url: …}`,
    /// about 7), so room for one node every 4 bytes is rarely outgrown; scalars take fewer bytes than their source.
    /// Room reserved and not used is never touched (large tables are mapped, not written, until used), so it costs
    /// no memory.
    ///
    /// `scalarBytes` is made `byteCount` bytes long, its bytes not written: `appendScalarBytes(_:count:)` writes
    /// scalars' text into it in place, and `endScalarBytes()` cuts it to what was written.
    package mutating func reserveCapacity(forTextOf byteCount: Int) {
        records.reserveCapacity(byteCount / 4)
        scalarBytes = [UInt8](unsafeUninitializedCapacity: byteCount) { _, initialized in initialized = byteCount }
        scalarByteCount = 0
        children.reserveCapacity(byteCount / 4)
    }

    /// Appends the `count` bytes at `bytes` to the scalars' text, in the room `reserveCapacity(forTextOf:)` made
    /// (grown when a text's scalars outgrow their source: `\L` is two bytes of source and three of text), and
    /// returns where they start. One copy into the table's storage: `Array.append(contentsOf:)` of a buffer cost
    /// some 90 instructions a scalar.
    package mutating func appendScalarBytes(_ bytes: UnsafePointer<UInt8>?, count: Int) -> Int {
        let start = scalarByteCount
        guard count > 0, let bytes else { return start }
        if count > scalarBytes.count - start {
            scalarBytes.append(contentsOf: repeatElement(0, count: max(count, scalarBytes.count)))
        }
        scalarBytes.withUnsafeMutableBufferPointer { room in
            (room.baseAddress! + start).update(from: bytes, count: count)
        }
        scalarByteCount = start + count
        return start
    }

    /// Cuts `scalarBytes` to the bytes written by `appendScalarBytes(_:count:)`.
    package mutating func endScalarBytes() {
        if scalarBytes.count > scalarByteCount { scalarBytes.removeLast(scalarBytes.count - scalarByteCount) }
    }

    /// Appends a node record and returns its node.
    package mutating func append(_ record: Record) -> YAMLNode {
        records.append(record)
        return YAMLNode(index: Int32(truncatingIfNeeded: records.count - 1))
    }

    /// Sets the width of the quoted scalar last appended.
    package mutating func setWidth(_ width: Int, ofLast node: YAMLNode) {
        guard width >= 0 else { return }
        if width < Int(Record.overflowWidth) {
            records[Int(node.index)].width = UInt16(width)
        } else {
            records[Int(node.index)].width = Record.overflowWidth
            overflowWidths[node.index] = width
        }
    }

    /// Sets the tag of the last node appended to the tag named `name`.
    package mutating func setTag(_ name: String, ofLast node: YAMLNode) {
        let index = tagIndex(name)
        if let small = Int16(exactly: index) {
            records[Int(node.index)].tag = small
        } else {
            records[Int(node.index)].tag = Record.overflowTag
            overflowTags[node.index] = index
        }
    }

    /// The index of `name` in `tagNames`, added if new. The tag last asked for is checked first: quoted scalars all
    /// carry the `str` tag.
    package mutating func tagIndex(_ name: String) -> Int32 {
        if let last = lastTag, last.name == name { return last.index }
        let index: Int32
        if let known = tagIndexByName[name] {
            index = known
        } else {
            tagNames.append(name)
            coreTags.append(Self.coreTag(named: name))
            index = Int32(truncatingIfNeeded: tagNames.count - 1)
            tagIndexByName[name] = index
        }
        lastTag = (name, index)
        return index
    }

    private static func coreTag(named name: String) -> CoreTag {
        switch name {
        case strTag: .str
        case "tag:yaml.org,2002:null": .null
        case "tag:yaml.org,2002:bool": .bool
        case "tag:yaml.org,2002:int": .int
        case "tag:yaml.org,2002:float": .float
        default: .none
        }
    }
}
