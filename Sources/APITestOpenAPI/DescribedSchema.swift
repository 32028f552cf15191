package import APITestJSON
import APITestJSONSchema

/// A Schema Object of an ``OpenAPIDescription`` as written (its `$ref`s not followed), and where it is, so that
/// its references can be followed from the file that holds it (``OpenAPIDescription/resolve(_:)``).
package struct DescribedSchema: Sendable {
    /// The schema as written: an object, or a boolean (OpenAPI 3.1).
    package var value: JSONValue
    /// The absolute path of the file that holds it.
    package var path: String
    /// Where it is in that file: JSON pointer reference tokens, unescaped.
    package var pointer: [String]

    /// A schema found at `pointer` in the file at `path`.
    package init(value: JSONValue, path: String, pointer: [String]) {
        self.value = value
        self.path = path
        self.pointer = pointer
    }

    /// The schema at member `key` of this one (`properties`, then a name, say), when there is one.
    package func member(_ keys: String...) -> DescribedSchema? {
        var current = self
        for key in keys {
            switch current.value {
            case .object(let object):
                guard let next = object[key] else { return nil }
                current = DescribedSchema(value: next, path: current.path, pointer: current.pointer + [key])
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                current = DescribedSchema(value: items[index], path: current.path, pointer: current.pointer + [key])
            default:
                return nil
            }
        }
        return current
    }

    /// The pointer as a URI fragment (`#/components/schemas/Pet`), for messages.
    package var fragment: String {
        SpecLocation(path: path, pointer: pointer).fragment
    }
}

// MARK: - Following references

extension OpenAPIDescription {
    /// What the `$ref` of `schema` names (a chain of them followed), or `schema` itself when it has none; nil when a
    /// reference cannot be followed here (a URL, an anchor or `$id`-relative reference, a place that does not
    /// exist, a cycle).
    package func resolve(_ schema: DescribedSchema) -> DescribedSchema? {
        var current = schema
        for _ in 0..<64 {
            guard case .object(let object) = current.value, case .string(let reference) = object["$ref"] else {
                return current
            }
            guard let target = locate(reference, from: current.path) else { return nil }
            current = target
        }
        return nil
    }

    /// The place `reference`, written in the file at `path`, names.
    func locate(_ reference: String, from path: String) -> DescribedSchema? {
        guard case .location(let target) = ReferenceText.target(of: reference, from: path),
            let file = files[target.path], let value = JSONPointer.value(in: file, at: target.pointer)
        else { return nil }
        return DescribedSchema(value: value, path: target.path, pointer: target.pointer)
    }
}
