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
    /// its root's items to `items`.
    private mutating func append(_ part: ListPart, items: inout [YAMLNode]) {
        let document = part.document
        // The part's node i becomes node `nodeBase + i`; its root, node 0, is dropped.
        let nodeBase = Int32(truncatingIfNeeded: records.count - 1)
        let byteBase = Int32(truncatingIfNeeded: scalarBytes.count)
        let childBase = Int32(truncatingIfNeeded: children.count)
        let lineOffset = Int32(clamping: part.lineOffset)
        let tags = document.tagNames.map { tagIndex($0) }
        for index in 1..<document.records.count {
            var record = document.records[index]
            let node = YAMLNode(index: nodeBase + Int32(truncatingIfNeeded: index))
            record.line = record.line &+ lineOffset
            record.start = record.start &+ (record.kind == .scalar ? byteBase : childBase)
            if let tag = document.tagIndex(of: YAMLNode(index: Int32(truncatingIfNeeded: index))) {
                if let small = Int16(exactly: tags[tag]) {
                    record.tag = small
                } else {
                    record.tag = Record.overflowTag
                    overflowTags[node.index] = tags[tag]
                }
            }
            if record.width == Record.overflowWidth {
                overflowWidths[node.index] = document.overflowWidths[Int32(truncatingIfNeeded: index)]
            }
            records.append(record)
        }
        let rootRecord = document.records[0]
        let rootRun = Int(rootRecord.start)..<Int(rootRecord.start + rootRecord.count)
        for child in document.children[..<rootRun.lowerBound] {
            children.append(YAMLNode(index: child.index &+ nodeBase))
        }
        for item in document.children[rootRun] {
            items.append(YAMLNode(index: item.index &+ nodeBase))
        }
        scalarBytes.append(contentsOf: document.scalarBytes)
    }
}
