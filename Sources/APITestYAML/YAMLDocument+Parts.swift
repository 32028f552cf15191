// MARK: - Joining parts

extension YAMLDocument {
    /// A document composed from a run of whole items of a list, cut from a longer text (`YAMLComposer.composeInParts`):
    /// its root, node 0, is the list, and its marks are counted from the start of the part.
    package struct ListPart {
        package let document: YAMLDocument
        /// The number of lines of the text before the part.
        package let lineOffset: Int
    }

    /// Appends the items of `parts`, in order, to `list`, the last value of the map `root`, as if they had followed
    /// its last item in this document's text: the nodes, scalar bytes and tags of each part are appended (its root
    /// dropped), its marks moved down by the lines before it, and the children of `list` and `root` moved to the end
    /// of `children`, where composing the whole text would have put them. Returns `false`, and changes nothing,
    /// when the children of `list` and `root` are not the last ones (the list was not the map's last value, or not
    /// the last collection closed).
    package mutating func appendItems(of parts: [ListPart], toList list: YAMLNode, root: YAMLNode) -> Bool {
        let listRecord = records[Int(list.index)]
        let rootRecord = records[Int(root.index)]
        let listRun = Int(listRecord.start)..<Int(listRecord.start + listRecord.count)
        let rootRun = Int(rootRecord.start)..<Int(rootRecord.start + rootRecord.count)
        guard listRun.upperBound == rootRun.lowerBound, rootRun.upperBound == children.count,
            parts.allSatisfy({ part in
                let record = part.document.records[0]
                return Int(record.start + record.count) == part.document.children.count
            })
        else { return false }
        var items = Array(children[listRun])
        let pairs = Array(children[rootRun])
        children.removeSubrange(listRun.lowerBound...)
        records.reserveCapacity(records.count + parts.reduce(0) { $0 + $1.document.records.count })
        children.reserveCapacity(children.count + parts.reduce(0) { $0 + $1.document.children.count } + pairs.count)
        scalarBytes.reserveCapacity(scalarBytes.count + parts.reduce(0) { $0 + $1.document.scalarBytes.count })
        for part in parts {
            append(part, items: &items)
            // A part's list is one level deeper in the whole text (inside the root map).
            deepestNesting = max(deepestNesting, part.document.deepestNesting + 1)
        }
        records[Int(list.index)].start = Int32(truncatingIfNeeded: children.count)
        records[Int(list.index)].count = Int32(truncatingIfNeeded: items.count)
        children.append(contentsOf: items)
        records[Int(root.index)].start = Int32(truncatingIfNeeded: children.count)
        children.append(contentsOf: pairs)
        return true
    }

    /// Appends one part's nodes (all but its root), the children of its collections and its scalar bytes, and
    /// its root's items to `items`. The records and children are copied in bulk and then moved in place (one pass
    /// over contiguous memory: this runs for every node of a long suite).
    private mutating func append(_ part: ListPart, items: inout [YAMLNode]) {
        let document = part.document
        // The part's node i becomes node `nodeBase + i`; its root, node 0, is dropped.
        let nodeBase = Int32(truncatingIfNeeded: records.count - 1)
        let byteBase = Int32(truncatingIfNeeded: scalarBytes.count)
        let childBase = Int32(truncatingIfNeeded: children.count)
        let lineOffset = Int32(clamping: part.lineOffset)
        let tags = document.tagNames.map { tagIndex($0) }
        let firstNew = records.count
        records.append(contentsOf: document.records[1...])
        var overflows: [(node: Int32, tag: Int32?, width: Int?)] = []
        records.withUnsafeMutableBufferPointer { records in
            for index in firstNew..<records.count {
                let partIndex = Int32(truncatingIfNeeded: index - firstNew + 1)
                records[index].line = records[index].line &+ lineOffset
                records[index].start = records[index].start &+ (records[index].kind == .scalar ? byteBase : childBase)
                let tag = records[index].tag
                let width = records[index].width
                if tag == -1 && width != Record.overflowWidth { continue }
                var tagIndex: Int32?
                if tag >= 0 {
                    tagIndex = tags[Int(tag)]
                } else if tag == Record.overflowTag, let index = document.overflowTags[partIndex] {
                    tagIndex = tags[Int(index)]
                }
                if let tagIndex, let small = Int16(exactly: tagIndex) {
                    records[index].tag = small
                } else if tagIndex != nil {
                    records[index].tag = Record.overflowTag
                }
                let node = nodeBase + partIndex
                let overflowTag = records[index].tag == Record.overflowTag ? tagIndex : nil
                let overflowWidth = width == Record.overflowWidth ? document.overflowWidths[partIndex] : nil
                if overflowTag != nil || overflowWidth != nil { overflows.append((node, overflowTag, overflowWidth)) }
            }
        }
        for overflow in overflows {
            if let tag = overflow.tag { overflowTags[overflow.node] = tag }
            if let width = overflow.width { overflowWidths[overflow.node] = width }
        }
        let rootRecord = document.records[0]
        let rootRun = Int(rootRecord.start)..<Int(rootRecord.start + rootRecord.count)
        let firstChild = children.count
        children.append(contentsOf: document.children[..<rootRun.lowerBound])
        children.withUnsafeMutableBufferPointer { children in
            for index in firstChild..<children.count {
                children[index] = YAMLNode(index: children[index].index &+ nodeBase)
            }
        }
        items.reserveCapacity(items.count + rootRun.count)
        for item in document.children[rootRun] {
            items.append(YAMLNode(index: item.index &+ nodeBase))
        }
        scalarBytes.append(contentsOf: document.scalarBytes)
    }
}
