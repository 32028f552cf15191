import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport

/// What the tests of one suite share during a run: the rendered variables, the base URL, the cookie jar and the
/// secrets to mask. Each test runs with a copy whose cookie jar is its own (`withOwnCookieJar()`).
struct SuiteRuntime: Sendable {
    let suite: Suite
    let context: TemplateContext
    let baseURL: String?
    /// Resolves URLs against `baseURL` and adds the default `User-Agent`.
    let serializer: RequestSerializer
    /// The suite's jar (setup and teardown), or a test's own copy of it.
    private(set) var cookieJar: CookieJar
    let masker: SecretMasker
    /// Whether any step of the suite uses a built-in value (`{{ random.uuid }}`); when none does, tests skip making
    /// them.
    let usesBuiltins: Bool
    /// The suite's response serializer chain (`response.decoders`).
    let decoders: ResponseSerializerChain
    /// Set when the suite's variables or base URL could not be rendered; every test then errors with it.
    let setupError: TestError?
    /// The suite's certificate trust and pins (its `security:` block and the run's TLS flags); `nil` for defaults.
    let security: SecurityPolicy?

    /// The runtime of `suite`, whose requests send `userAgent` and are held to `security`: the policy the run built
    /// for the suite (`SecurityPolicies`), `nil` for the defaults, or why none could be built.
    init(
        suite: Suite, userAgent: String,
        security policy: Result<SecurityPolicy?, SecurityPolicyError> = .success(nil)
    ) {
        self.suite = suite
        self.cookieJar = CookieJar()
        var context = TemplateContext()
        var baseURL: String?
        var setupError: TestError?
        do {
            context = try suite.makeContext()
            baseURL = try suite.baseURL?.render(context)
        } catch {
            setupError = TestError(.template(error), location: nil)
        }
        switch policy {
        case .success(let security):
            self.security = security
        case .failure(let error):
            self.security = nil
            setupError = setupError ?? TestError(.security(error), location: suite.security?.location)
        }
        self.context = context
        self.baseURL = baseURL
        self.serializer = RequestSerializer(baseURL: baseURL, defaultHeaders: ["User-Agent": userAgent])
        self.setupError = setupError
        let stepNames = Self.namesUsedBySteps(of: suite)
        self.masker = SecretMasker(secrets: Self.referencedSecrets(of: suite, stepNames: stepNames, in: context))
        // Default headers and the default retry's `until` are rendered per test too: their built-ins are fresh.
        let perTestNames = stepNames.union(suite.namesUsedByDefaults)
        self.usesBuiltins = !perTestNames.isDisjoint(with: TemplateContext.builtinNames)
        let decoding = suite.responseDecoding
        self.decoders = ResponseSerializerChain(
            order: decoding.decoders ?? ResponseDecoderName.allCases,
            removesKeysWithNullValues: decoding.removesKeysWithNullValues)
    }

    /// This runtime with a cookie jar of its own that starts from the cookies of this one (those `setup` left):
    /// the steps of one test share it, and no other test sees it.
    func withOwnCookieJar() -> SuiteRuntime {
        var copy = self
        copy.cookieJar = CookieJar(copying: cookieJar)
        return copy
    }

    /// The names the templates of every step use (setup, tests, teardown). Walks the steps in place: a suite can
    /// have tens of thousands, and copying each `Step` out would cost more than reading it.
    static func namesUsedBySteps(of suite: Suite) -> Set<String> {
        var names = Set<String>()
        func add(_ step: Step) {
            for template in step.templates where !template.isLiteral { names.formUnion(template.referencedNames) }
        }
        suite.setup.forEach(add)
        for testIndex in suite.tests.indices {
            for stepIndex in suite.tests[testIndex].steps.indices { add(suite.tests[testIndex].steps[stepIndex]) }
        }
        suite.teardown.forEach(add)
        return names
    }

    /// The texts of the secret values the suite actually uses (not every environment variable of the process).
    static func referencedSecrets(of suite: Suite, stepNames: Set<String>, in context: TemplateContext) -> [String] {
        var names = stepNames.union(suite.suiteLevelNames)
        // Suite variables built from secrets are secret too, and are referenced by their own names.
        names.formUnion(suite.variables.map(\.name))
        return names.filter { context.isSecret($0) }.compactMap { context[$0].map(TemplateContext.text(of:)) }
    }
}
