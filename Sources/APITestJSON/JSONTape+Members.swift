// MARK: - Elements and members

extension JSONTape {
    /// Calls `body` with the index of each element of the array at `index`, in order, until it returns false.
    package func forEachElement(_ index: Int, _ body: (Int) -> Bool) {
        guard kind(index) == .array else { return }
        forEachChild(index) { _, child in body(child) }
    }

    /// The number of elements of the array at `index` (0 for other values).
    package func elementCount(_ index: Int) -> Int {
        var count = 0
        forEachElement(index) { _ in
            count += 1
            return true
        }
        return count
    }

    /// Calls `body` with (name, key index, value index) for each member of the object at `index` as a
    /// ``JSONObject`` keeps them: a repeated key once, at its first position, with its last value. Stops when
    /// `body` returns false. The key index is a string entry, so it can stand for the name as a value.
    package func forEachMember(_ index: Int, _ body: (_ name: String, _ key: Int, _ value: Int) -> Bool) {
        guard kind(index) == .object else { return }
        if let repeated = repeatedKeys(of: index) {
            forEachChild(index) { key, value in
                guard !repeated.later.contains(key!) else { return true }
                let name = string(key!)
                return body(name, key!, repeated.lastValue[CodePointKey(name)] ?? value)
            }
        } else {
            // The text's bytes are reached once for every key (each reach goes through the text's type).
            text.withJSONBytes { buffer in
                forEachChild(index) { key, value in body(Self.string(at: self[key!], in: buffer), key!, value) }
            }
        }
    }

    /// The number of distinct member names of the object at `index` (0 for other values).
    package func memberCount(_ index: Int) -> Int {
        var count = 0
        forEachMember(index) { _, _, _ in
            count += 1
            return true
        }
        return count
    }

    /// The value of the member `name` of the object at `index`; a repeated key gives its last value, as in
    /// ``JSONObject``.
    package func member(named name: String, of index: Int) -> Int? {
        guard kind(index) == .object else { return nil }
        var found: Int?
        // The text's bytes are reached once for the whole object (each reach goes through the text's type), and
        // each key compared in place; only a key with escapes is decoded.
        var name = name
        name.withUTF8 { wanted in
            text.withJSONBytes { buffer in
                forEachChild(index) { keyIndex, child in
                    let keyIndex = keyIndex!
                    let plain = Self.plainKey(
                        at: Int(self[keyIndex] & Self.payloadMask) + 1, in: buffer, equals: wanted)
                    // Names compare by code points: an escaped key is decoded, then compared as UTF-8 bytes.
                    if plain ?? string(keyIndex).utf8.elementsEqual(wanted) { found = child }
                    return true
                }
            }
        }
        return found
    }

    // MARK: - Repeated keys

    /// The keys of an object that repeat an earlier key (to skip) and the last value of each repeated name; nil
    /// when every key is distinct (the usual case, found without building anything for small objects). Names
    /// compare by code points, as ``JSONObject`` compares them.
    private func repeatedKeys(of index: Int) -> (later: Set<Int>, lastValue: [CodePointKey: Int])? {
        if hasDistinctPlainKeys(index) { return nil }
        var names: [CodePointKey] = []
        var hashes: Set<Int> = []
        var colliding = false
        forEachChild(index) { key, _ in
            let name = CodePointKey(string(key!))
            if names.count < 12 {
                if names.contains(name) { colliding = true }
                names.append(name)
                if names.count == 12 { hashes = Set(names.map(\.hashValue)) }
            } else if !hashes.insert(name.hashValue).inserted {
                colliding = true
            }
            return !colliding
        }
        guard colliding else { return nil }
        var later: Set<Int> = []
        var lastValue: [CodePointKey: Int] = [:]
        var seen: Set<CodePointKey> = []
        forEachChild(index) { key, value in
            let name = CodePointKey(string(key!))
            if !seen.insert(name).inserted { later.insert(key!) }
            lastValue[name] = value
            return true
        }
        // A hash collision without a repeated name: nothing to skip.
        return later.isEmpty ? nil : (later, lastValue)
    }

    /// Whether the object at `index` has at most 12 keys, all ASCII without escapes, that differ byte for byte:
    /// then they are distinct names without decoding any (different ASCII bytes are different strings). False
    /// when that cannot be told this way, not only when a key repeats.
    private func hasDistinctPlainKeys(_ index: Int) -> Bool {
        let limit = 12
        return text.withJSONBytes { buffer in
            withUnsafeTemporaryAllocation(of: (start: Int, end: Int).self, capacity: limit) { keys in
                var count = 0
                var distinct = true
                forEachChild(index) { key, _ in
                    guard count < limit else {
                        distinct = false
                        return false
                    }
                    let start = Int(self[key!] & Self.payloadMask) + 1
                    var end = start
                    while end < buffer.count, buffer[end] != UInt8(ascii: "\"") {
                        guard buffer[end] != UInt8(ascii: "\\"), buffer[end] < 0x80 else {
                            distinct = false
                            return false
                        }
                        end += 1
                    }
                    let length = end - start
                    for earlier in 0..<count where keys[earlier].end - keys[earlier].start == length {
                        if buffer[keys[earlier].start..<keys[earlier].end].elementsEqual(buffer[start..<end]) {
                            distinct = false
                            return false
                        }
                    }
                    keys[count] = (start, end)
                    count += 1
                    return true
                }
                return distinct
            }
        }
    }
}
