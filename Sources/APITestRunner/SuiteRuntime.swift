import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport

/// What the tests of one suite share during a run: the rendered variables, the base URL, the cookie jar and the
/// secrets to mask. Each test runs with a copy whose cookie jar is its own (`withOwnCookieJar()`).
///
/// Everything but the jar is made once per suite and kept in one shared object, so that a copy per test costs two
/// references, not a copy of every field.
struct SuiteRuntime: Sendable {
    /// The fields every test of the suite shares, made once.
    private final class Shared: Sendable {
        let suite: Suite
        let context: TemplateContext
        let baseURL: String?
        let serializer: RequestSerializer
        let masker: SecretMasker
        let usesBuiltins: Bool
        let usesFunctions: Bool
        let decoders: ResponseSerializerChain
        let setupError: TestError?
        let security: SecurityPolicy?
        let checksContract: Bool

        init(
            suite: Suite, context: TemplateContext, baseURL: String?, serializer: RequestSerializer,
            masker: SecretMasker, usesBuiltins: Bool, usesFunctions: Bool, decoders: ResponseSerializerChain,
            setupError: TestError?,
            security: SecurityPolicy?
        ) {
            self.suite = suite
            self.context = context
            self.baseURL = baseURL
            self.serializer = serializer
            self.masker = masker
            self.usesBuiltins = usesBuiltins
            self.usesFunctions = usesFunctions
            self.decoders = decoders
            self.setupError = setupError
            self.security = security
            self.checksContract = suite.contract != nil
        }
    }

    private let shared: Shared
    // The fields are read through `_read` accessors, which lend the shared value instead of copying it out (a
    // `Suite` holds dozens of references).
    /// The suite's jar (setup and teardown), or a test's own copy of it.
    private(set) var cookieJar: CookieJar

    var suite: Suite { _read { yield shared.suite } }
    /// The suite's variables, rendered.
    var context: TemplateContext { _read { yield shared.context } }
    var baseURL: String? { _read { yield shared.baseURL } }
    /// Resolves URLs against `baseURL` and adds the default `User-Agent`.
    var serializer: RequestSerializer { _read { yield shared.serializer } }
    var masker: SecretMasker { _read { yield shared.masker } }
    /// Whether any step of the suite uses a built-in value (`{{ random.uuid }}`); when none does, tests skip making
    /// them.
    var usesBuiltins: Bool { _read { yield shared.usesBuiltins } }
    /// Whether a template of a step or of the default headers calls a function: a value it computes from a secret
    /// is a secret too (`TestExecutor` adds it to the masker).
    var usesFunctions: Bool { _read { yield shared.usesFunctions } }
    /// The suite's response serializer chain (`response.decoders`).
    var decoders: ResponseSerializerChain { _read { yield shared.decoders } }
    /// Set when the suite's variables or base URL could not be rendered; every test then errors with it.
    var setupError: TestError? { _read { yield shared.setupError } }
    /// The suite's certificate trust and pins (its `security:` block and the run's TLS flags); `nil` for defaults.
    var security: SecurityPolicy? { _read { yield shared.security } }
    /// Whether the suite has an OpenAPI contract (`suite.contract != nil`, kept: that test copied the contract out).
    var checksContract: Bool { shared.checksContract }

    /// The runtime of `suite`, whose requests send `userAgent` and are held to `security`: the policy the run built
    /// for the suite (`SecurityPolicies`), `nil` for the defaults, or why none could be built.
    init(
        suite: Suite, userAgent: String,
        security policy: Result<SecurityPolicy?, SecurityPolicyError> = .success(nil)
    ) {
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
        let security: SecurityPolicy?
        switch policy {
        case .success(let policy):
            security = policy
        case .failure(let error):
            security = nil
            setupError = setupError ?? TestError(.security(error), location: suite.security?.location)
        }
        let (stepNames, stepsCallFunctions) = Self.templateUse(of: suite)
        // Default headers and the default retry's `until` are rendered per test too: their built-ins are fresh.
        let perTestNames = stepNames.union(suite.namesUsedByDefaults)
        let decoding = suite.responseDecoding
        self.shared = Shared(
            suite: suite, context: context, baseURL: baseURL,
            serializer: RequestSerializer(baseURL: baseURL, defaultHeaders: ["User-Agent": userAgent]),
            // The credentials of the proxies libcurl takes from the environment are the same for every request:
            // masked from the start rather than added to each request's masker.
            masker: SecretMasker(
                secrets: Self.referencedSecrets(of: suite, stepNames: stepNames, in: context)
                    + SecretMasker.environmentProxyCredentials),
            usesBuiltins: !perTestNames.isDisjoint(with: TemplateContext.builtinNames),
            usesFunctions: stepsCallFunctions || suite.defaults.headers.contains(where: { $0.value.callsFunction }),
            decoders: ResponseSerializerChain(
                order: decoding.decoders ?? ResponseDecoderName.allCases,
                removesKeysWithNullValues: decoding.removesKeysWithNullValues),
            setupError: setupError, security: security)
    }

    /// This runtime with a cookie jar of its own that starts from the cookies of this one (those `setup` left):
    /// the steps of one test share it, and no other test sees it.
    func withOwnCookieJar() -> SuiteRuntime {
        var copy = self
        copy.cookieJar = CookieJar(copying: cookieJar)
        return copy
    }

    /// The names the templates of every step use (setup, tests, teardown), and whether one of them calls a
    /// function: both from one walk over the steps, read in place (`Suite.forEachStep`, `Step.forEachTemplate`): a
    /// suite can have tens of thousands of steps, walked before the first request.
    static func templateUse(of suite: Suite) -> (names: Set<String>, callsFunctions: Bool) {
        var names = Set<String>()
        var calls = false
        suite.forEachStep { step in
            // A step the parser found without placeholders has only literal templates, which add nothing; its
            // `control`'s lists are not vouched for (`Step.hasOnlyLiteralTemplates`).
            if step.hasOnlyLiteralTemplates, !step.hasControl { return }
            step.forEachTemplate { template in
                guard !template.isLiteral else { return }
                names.formUnion(template.referencedNames)
                calls = calls || template.callsFunction
            }
        }
        return (names, calls)
    }

    /// The texts of the secret values the suite actually uses (not every environment variable of the process).
    static func referencedSecrets(of suite: Suite, stepNames: Set<String>, in context: TemplateContext) -> [String] {
        var names = stepNames.union(suite.suiteLevelNames)
        // Suite variables built from secrets are secret too, and are referenced by their own names.
        names.formUnion(suite.variables.map(\.name))
        return names.filter { context.isSecret($0) }.compactMap { context[$0].map(TemplateContext.text(of:)) }
    }
}
