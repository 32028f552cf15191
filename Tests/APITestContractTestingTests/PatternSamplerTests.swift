import APITestContractTesting
import APITestJSON
import APITestJSONSchema
import APITestOpenAPI
import Testing

/// `pattern` in generated strings: every sample of a pattern in the sampler's subset matches it by the project's
/// JSON Schema validator (the contract's), a pattern outside the subset makes no sampler, and the generator and the
/// summary use that: the old generator ignored `pattern` (its strings were random letters, which the contract then
/// did not judge).
@Suite struct PatternSamplerTests {
    static let supported = [
        #"^[A-Z]{3}-\d{4}$"#,
        #"^97[89]-\d{10}$"#,
        #"^(cat|dog)s?$"#,
        #"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$"#,
        #"^\w+( \w+)*$"#,
        #"[^,]+"#,
        #"^(?:\+?1[-. ]?)?\(?\d{3}\)?[-. ]?\d{3}[-. ]?\d{4}$"#,
        #"^\u0041+\x42?$"#,
        #"^[\d\-]{5,8}$"#,
        #"^a.c$"#,
        #"^(?<year>\d{4})-(?<month>0[1-9]|1[0-2])$"#,
        #"^[^\s]{2,3}\S*?$"#,
        #"ab|cd$"#,
        #"^v\d+\.\d+\.\d+(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$"#,
    ]

    static let unsupported = [
        #"^(a)\1$"#, #"^(?=a)\w+$"#, #"\bword\b"#, #"^\p{L}+$"#, #"(?i)abc"#, #"^a**$"#, #"[[:alpha:]]"#, #"^(a"#,
        #"a{3,1}"#, #"^[z-a]$"#, "",
    ]

    @Test(arguments: supported)
    func everySampleMatchesItsPattern(pattern: String) throws {
        let sampler = try #require(PatternSampler(pattern), "\(pattern) is in the subset")
        let schema = try JSONSchema(
            try JSONParser.parse(#"{"type": "string", "pattern": "# + JSONWriter.string(.string(pattern)) + "}"))
        var random = FuzzRandom(seed: 5)
        for _ in 0..<200 {
            let text = sampler.sample(&random)
            #expect(schema.validate(.string(text)).isValid, "\(pattern): \(text.debugDescription)")
        }
    }

    @Test(arguments: unsupported)
    func aPatternOutsideTheSubsetMakesNoSampler(pattern: String) {
        // The empty pattern matches everything and needs no sampler: it is no construct the subset lacks.
        if pattern.isEmpty {
            #expect(PatternSampler(pattern) != nil)
        } else {
            #expect(PatternSampler(pattern) == nil, "\(pattern)")
        }
    }

    @Test func theSameSeedMakesTheSameSamples() throws {
        let sampler = try #require(PatternSampler(#"^[a-f0-9]{8}-(x|y|z)+$"#))
        var first = FuzzRandom(seed: 42)
        var second = FuzzRandom(seed: 42)
        let one = (0..<20).map { _ in sampler.sample(&first) }
        let two = (0..<20).map { _ in sampler.sample(&second) }
        #expect(one == two)
        #expect(Set(one).count > 1)
    }

    @Test func lengthBoundsAreKeptOrNoSampleIsGiven() throws {
        let sampler = try #require(PatternSampler(#"^[a-z]{1,20}$"#))
        var random = FuzzRandom(seed: 3)
        for _ in 0..<50 {
            let text = try #require(sampler.sample(&random, minLength: 4, maxLength: 6))
            #expect((4...6).contains(text.count), "\(text)")
        }
        #expect(sampler.sample(&random, minLength: 30, maxLength: 40) == nil)
    }

    /// The generator's strings: a sample for a pattern in the subset (which the contract finds valid), the schema's
    /// example for one outside it.
    @Test func theGeneratorFollowsPatternsAndFallsBackToExamples() throws {
        let schemas = [
            #"{"type": "string", "pattern": "^[A-Z]{2}\\d{3}$"}"#,
            #"{"type": "string", "pattern": "^\\p{Lu}\\b", "example": "A"}"#,
            #"{"type": "object", "required": ["isbn"], "properties": {"isbn": {"type": "string", "minLength": 17, "pattern": "^97[89]-\\d{10}-\\d{2}$"}}}"#,
        ]
        let description = try TestDocument.load(TestDocument.bodies(schemas))
        let generator = ValueGenerator(description: description)
        let operations = description.operations
        var random = FuzzRandom(seed: 8)
        for (index, source) in schemas.enumerated() {
            let schema = try #require(operations[index].requestBody?.content.first?.schema)
            let compiled = try JSONSchema(try JSONParser.parse(source))
            for _ in 0..<50 {
                let value = generator.valid(schema, &random)
                #expect(compiled.validate(value).isValid, "\(source): \(JSONWriter.string(value))")
            }
            #expect(compiled.validate(generator.minimal(schema)).isValid, "\(source)")
        }
    }

    @Test func theSummaryNamesEachUnsupportedPatternOnce() throws {
        let text = TestDocument.bodies([
            #"{"type": "string", "pattern": "^\\p{Lu}\\b", "example": "A"}"#,
            #"{"type": "object", "properties": {"a": {"type": "string", "pattern": "^\\p{Lu}\\b"}, "b": {"type": "string", "pattern": "^\\bx"}, "c": {"type": "string", "pattern": "^ok$"}}}"#,
        ])
        let engine = try TestDocument.document(text).engine(FuzzConfiguration(baseURL: "http://127.0.0.1:9"))
        #expect(engine.unsupportedPatterns() == [#"^\p{Lu}\b"#, #"^\bx"#])
        let run = FuzzRun(outcomes: [], notSent: 0, findings: [], duration: .zero)
        let summary = engine.summary(of: run).render()
        #expect(summary.contains(#"2 patterns outside the generator's subset"#), "\(summary)")
        #expect(summary.split(separator: #"'^\p{Lu}\b'"#, omittingEmptySubsequences: false).count == 2, "\(summary)")
    }
}
