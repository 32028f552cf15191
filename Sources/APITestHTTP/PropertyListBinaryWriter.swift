import Foundation

/// Writes Apple's binary property list format, `bplist00` (CoreFoundation's `CFBinaryPList.c` describes it; Python's
/// `plistlib` reads and writes it the same way): a header, the objects, a table of their offsets and a 32-byte
/// trailer.
enum PropertyListBinaryWriter {
    /// An object of the object table: a scalar, or a container of references to other objects.
    private enum Object {
        case scalar(PropertyListBody.Value)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// The binary property list of `value`: every value its own object (nothing shared), containers before their
    /// members, dictionary members in document order.
    static func bytes(_ value: PropertyListBody.Value) -> [UInt8] {
        var objects: [Object] = []
        flatten(value, into: &objects)
        let referenceSize = byteCount(UInt64(objects.count))
        var output: [UInt8] = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(UInt64(output.count))
            write(object, referenceSize: referenceSize, into: &output)
        }
        let tableOffset = UInt64(output.count)
        let offsetSize = byteCount(tableOffset)
        for offset in offsets { appendBigEndian(offset, size: offsetSize, into: &output) }
        // Trailer: 5 unused bytes, the sort version, the offset and reference sizes, the object count, the top
        // object's number and the offset table's position.
        output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        appendBigEndian(UInt64(objects.count), size: 8, into: &output)
        appendBigEndian(0, size: 8, into: &output)
        appendBigEndian(tableOffset, size: 8, into: &output)
        return output
    }

    // MARK: - Object table

    /// Appends `value` and then its members to `objects`; returns its object number.
    @discardableResult
    private static func flatten(_ value: PropertyListBody.Value, into objects: inout [Object]) -> Int {
        let number = objects.count
        switch value {
        case .array(let items):
            objects.append(.array([]))
            var references: [Int] = []
            references.reserveCapacity(items.count)
            for item in items { references.append(flatten(item, into: &objects)) }
            objects[number] = .array(references)
        case .dictionary(let members):
            objects.append(.dictionary(keys: [], values: []))
            var keys: [Int] = []
            var values: [Int] = []
            for member in members { keys.append(flatten(.string(member.key), into: &objects)) }
            for member in members { values.append(flatten(member.value, into: &objects)) }
            objects[number] = .dictionary(keys: keys, values: values)
        default:
            objects.append(.scalar(value))
        }
        return number
    }

    // MARK: - Objects

    private static func write(_ object: Object, referenceSize: Int, into output: inout [UInt8]) {
        switch object {
        case .array(let references):
            marker(0xA0, count: references.count, into: &output)
            for reference in references { appendBigEndian(UInt64(reference), size: referenceSize, into: &output) }
        case .dictionary(let keys, let values):
            marker(0xD0, count: keys.count, into: &output)
            for reference in keys + values {
                appendBigEndian(UInt64(reference), size: referenceSize, into: &output)
            }
        case .scalar(let value):
            write(value, into: &output)
        }
    }

    private static func write(_ value: PropertyListBody.Value, into output: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            output.append(flag ? 0x09 : 0x08)
        case .integer(let number):
            writeInteger(number, into: &output)
        case .unsigned(let number):
            if number <= UInt64(Int64.max) {
                writeInteger(Int64(number), into: &output)
            } else {
                // Above Int64.max: a 16-byte integer whose high half is zero.
                output.append(0x14)
                appendBigEndian(0, size: 8, into: &output)
                appendBigEndian(number, size: 8, into: &output)
            }
        case .real(let number):
            output.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, into: &output)
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                marker(0x50, count: text.utf8.count, into: &output)
                output.append(contentsOf: text.utf8)
            } else {
                let units = Array(text.utf16)
                marker(0x60, count: units.count, into: &output)
                for unit in units { appendBigEndian(UInt64(unit), size: 2, into: &output) }
            }
        case .array, .dictionary:
            preconditionFailure("containers are flattened into the object table")
        }
    }

    /// An integer in the fewest of 1, 2, 4 or 8 bytes; a negative one always in 8 (as CoreFoundation writes it).
    private static func writeInteger(_ number: Int64, into output: inout [UInt8]) {
        let size = number < 0 ? 8 : byteCount(UInt64(number))
        output.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendBigEndian(UInt64(bitPattern: number), size: size, into: &output)
    }

    /// A type marker with its count in the low nibble, or 0xF there and the count as an integer object after it.
    private static func marker(_ type: UInt8, count: Int, into output: inout [UInt8]) {
        if count < 15 {
            output.append(type | UInt8(count))
        } else {
            output.append(type | 0x0F)
            writeInteger(Int64(count), into: &output)
        }
    }

    // MARK: - Bytes

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    private static func byteCount(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, into output: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}
