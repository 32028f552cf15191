import APITestJSON
import APITestJSONSchema

// MARK: - Reference Objects

extension OpenAPILoader {
    /// `node`, or what its Reference Objects lead to (through chains of them); nil, with the problem reported, when
    /// a reference cannot be followed (a missing file or place, a URL, a cycle).
    func resolve(_ node: SpecNode) -> SpecNode? {
        guard case .object(let object) = node.value, let reference = object["$ref"] else { return node }
        if let cached = resolvedReferences[node.location] { return cached }
        let target = follow(node, reference)
        resolvedReferences[node.location] = .some(target)
        return target
    }

    private func follow(_ start: SpecNode, _ firstReference: JSONValue) -> SpecNode? {
        var current = start
        var visited: [SpecLocation] = []
        var chain: [String] = []
        var referenceValue = firstReference
        while true {
            let referenceLocation = current.location.appending("$ref")
            guard let reference = string(SpecNode(value: referenceValue, location: referenceLocation), "$ref") else {
                return nil
            }
            if visited.contains(current.location) || visited.count >= 64 {
                report(.referenceCycle(chain), at: start.location.appending("$ref"))
                return nil
            }
            visited.append(current.location)
            chain.append(reference)
            guard let target = locate(reference, at: referenceLocation) else { return nil }
            current = target
            guard case .object(let object) = target.value, let next = object["$ref"] else { return target }
            if let cached = resolvedReferences[target.location] {
                return cached
            }
            referenceValue = next
        }
    }

    /// The place `reference` (found at `referenceLocation`) names; nil, with the problem reported, when there is
    /// none.
    func locate(_ reference: String, at referenceLocation: SpecLocation) -> SpecNode? {
        switch ReferenceText.target(of: reference, from: referenceLocation.path) {
        case .external:
            report(.externalReference(reference: reference), at: referenceLocation)
            return nil
        case .invalidFragment:
            report(.unresolvableReference(reference: reference), at: referenceLocation)
            return nil
        case .location(let target):
            guard let file = documents.file(at: target.path) else {
                reportUnreadable(target.path, reference: reference, at: referenceLocation)
                return nil
            }
            guard let value = lookUp(target.pointer, in: file.value, path: target.path) else {
                report(.unresolvableReference(reference: reference), at: referenceLocation)
                return nil
            }
            return SpecNode(value: value, location: target)
        }
    }

    /// Reports why the file at `path`, named by `reference`, could not be read.
    func reportUnreadable(_ path: String, reference: String, at referenceLocation: SpecLocation) {
        guard let failure = documents.failures[path] else {
            report(.unresolvableReference(reference: reference), at: referenceLocation)
            return
        }
        switch failure.kind {
        case .missing:
            report(.referencedFileMissing(reference: reference, path: path), at: referenceLocation)
        case .syntax(let location):
            report(
                OpenAPILoadProblem(kind: .readFailed(path: path, failure), location: location, pointer: failure.pointer)
            )
        case .unreadable:
            report(.readFailed(path: path, failure), at: referenceLocation)
        }
    }

    /// The value at `pointer` in `root`; when the pointer goes through a Reference Object (`#/paths/~1a/get` where
    /// `/a` is a `$ref`), through what it leads to.
    private func lookUp(_ pointer: [String], in root: JSONValue, path: String) -> JSONValue? {
        if let value = JSONPointer.value(in: root, at: pointer) { return value }
        var current = root
        var currentPath = path
        var hops = 0
        for token in pointer {
            while case .object(let object) = current, object[token] == nil,
                case .string(let reference) = object["$ref"],
                hops < 16, case .location(let target) = ReferenceText.target(of: reference, from: currentPath),
                let value = documents.value(at: target)
            {
                current = value
                currentPath = target.path
                hops += 1
            }
            guard let next = JSONPointer.value(in: current, at: [token]) else { return nil }
            current = next
        }
        return current
    }
}
