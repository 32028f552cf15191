import APITestJSON
import APITestJSONSchema
package import APITestOpenAPI

// MARK: - Invalid values

extension ValueGenerator {
    /// A random value that breaks one keyword of `schema` (said in the result), or nil when no keyword of it can be
    /// broken (a schema that accepts anything). Built on a valid value, so that only the stated keyword fails.
    package func invalid(_ schema: DescribedSchema, _ random: inout FuzzRandom) -> BoundaryValue? {
        let candidates = boundaries(schema).filter { $0.isValid == false }
        guard !candidates.isEmpty else { return nil }
        // Sometimes a broken value deep in a random valid object rather than in the simplest one.
        let chosen = random.pick(candidates)
        let view = view(schema)
        guard (view.types?.first ?? view.primaryType) == "object", random.chance(1, in: 2),
            case .object(var object) = valid(schema, &random), case .object(let broken) = chosen.value
        else { return chosen }
        // Lay the broken member over the random object: the same members changed or left out.
        guard let name = JSONPointer.referenceTokens(chosen.pointer)?.first else { return chosen }
        object[name] = broken[name]
        return BoundaryValue(.object(object), keyword: chosen.keyword, pointer: chosen.pointer, isValid: false)
    }
}
