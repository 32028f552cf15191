// swift-tools-version:6.0
// apitest: a declarative API-test runner for Linux.
//
// Layers (see docs/architecture.md): the HTTP layer (APITestHTTP, on libcurl) knows nothing of suites; the suite
// layer (APITestSuite) does no network I/O; the runner (APITestRunner) uses both, with masking (APITestSecrets),
// checks (APITestChecks), curl commands (APITestReproduce) and OAuth2 (APITestAuth) in targets of their own that import
// no runner type; the load mode (APITestLoad) sits above the runner; reporters (APITestReporting) depend only on
// result types (APITestResults); the `apitest` executable (APITestCLI) parses arguments and wires.
import PackageDescription

/// The compiler holds the layers: a member (a method, a property, a conformance's requirement) is visible in a file
/// only through a module that file imports itself, not through one that a dependency happens to import (SE-0444).
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "apitest",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "apitest", targets: ["APITestCLI"]),
        .executable(name: "apitest-demo", targets: ["DemoAPI"]),
        .library(name: "APITestHTTP", targets: ["APITestHTTP"]),
        .executable(name: "apitest-fuzz", targets: ["APITestFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // HDR histograms for the load mode's latencies (record, percentiles, exact merge).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // MARK: - C interop
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // Pinning in the TLS handshake (libcurl's SSL_CTX callback + an OpenSSL verify callback), certificate facts.
        .target(name: "CTLSShim", dependencies: ["CCurl", "COpenSSL"]),
        // The run-time versions of libcurl (and its TLS backend), OpenSSL and libyaml, for `apitest --version`.
        .target(name: "CLibraryVersions", dependencies: ["CCurl", "COpenSSL", "CYAML"]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libyaml, the design card's YAML parser (Debian libyaml-dev): the suite loader composes its events.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // XML and XPath through libxml2, loaded with dlopen on first use (it and the ICU it links cost ~1.7 ms of
        // start-up that only XML bodies need). Only the C file includes its headers, found through the symlink
        // Sources/CLibXML2/libxml2-headers -> /usr/include/libxml2 (Debian libxml2-dev); pkg-config would also add
        // -lxml2, and unsafe flags would keep the APITestHTTP library from being used as a versioned dependency.
        .target(
            name: "CLibXML2",
            cSettings: [.headerSearchPath("libxml2-headers")],
            linkerSettings: [.linkedLibrary("dl")]
        ),

        // MARK: - Foundations shared by every layer
        .target(name: "APITestSupport"),
        .target(name: "APITestJSON"),
        .target(name: "APITestJSONSchema", dependencies: ["APITestJSON", "APITestSupport"]),
        // The security model below the suite and HTTP layers: pinning modes, parsed pins, a `security:` block's
        // settings and the flags laid over them, the rules between them and their problems.
        .target(name: "APITestSecurity"),

        // MARK: - HTTP layer (AFNetworking lineage)
        .target(
            name: "APITestHTTP",
            dependencies: [
                "CCurlShim", "CTLSShim", "CLibXML2", "APITestJSON", "APITestSecurity", "APITestSupport",
            ]),

        // MARK: - YAML layer
        // libyaml's events composed into a compact document (positions, tags, anchors, duplicate keys), its
        // values as JSON, the load budget, and the reader of OpenAPI documents on it: below the suite layer and
        // `generate`, which read their files through it.
        .target(
            name: "APITestYAML", dependencies: ["CYAML", "APITestSupport", "APITestJSON", "APITestOpenAPI"]),

        // MARK: - Suite layer
        .target(
            name: "APITestSuite",
            dependencies: [
                "APITestSupport", "APITestJSON", "APITestJSONSchema", "APITestSecurity", "APITestOpenAPI",
                "APITestYAML",
                // The `.proto` schema of `grpc:` steps, compiled and checked when the suite loads.
                "APITestProtobuf",
                // Digests and HMAC of expression functions (`sha256`, `hmacSHA256`), computed by libcrypto.
                "COpenSSL",
            ]
        ),

        // MARK: - OpenAPI contracts
        // An OpenAPI 3.0/3.1 document as a contract: loaded through a reader the suite layer supplies (no I/O of its
        // own), schemas compiled once, requests routed to operations, responses and requests checked.
        .target(name: "APITestOpenAPI", dependencies: ["APITestJSON", "APITestJSONSchema", "APITestSupport"]),
        // `apitest generate openapi`: suites from a document's description (requests built from its examples and
        // schemas, checked against its contract), filled into the one suite-writing model (`SuiteDocument`).
        .target(
            name: "APITestGenerate",
            dependencies: ["APITestOpenAPI", "APITestJSON", "APITestSuiteWriting"]),
        // `apitest fuzz`: requests generated from a document (examples, boundary values, seeded random data, stateful
        // sequences through links), sent through the HTTP layer with `run`'s transfer settings (the runner's
        // `RequestTransfer`: TLS and transport flags), every response checked as Schemathesis checks it; findings
        // shrunk and written as suites.
        .target(
            name: "APITestContractTesting",
            dependencies: [
                "APITestOpenAPI", "APITestJSON", "APITestJSONSchema", "APITestHTTP", "APITestSuiteWriting",
                "APITestResults", "APITestSecrets", "APITestSupport", "APITestRunner",
            ]),

        // MARK: - Writing suites
        // What every command that writes suites shares: the YAML emitter, the editor modeline's schema path, relative
        // paths and the all-or-nothing file writer.
        .target(name: "APITestSuiteWriting", dependencies: ["APITestJSON", "APITestSupport"]),
        // `apitest import curl` (and the other importers): a model of what is imported, independent of its source,
        // and the renderer that writes it as one suite file with a comment for everything not translated.
        // COpenSSL: libcrypto's SHA-256 for the checks written for recorded binary WebSocket messages.
        .target(
            name: "APITestImport", dependencies: ["APITestSuiteWriting", "APITestJSON", "APITestSupport", "COpenSSL"]),

        // MARK: - Results, runner, reporting
        .target(
            name: "APITestResults",
            dependencies: ["APITestSupport", .product(name: "Histogram", package: "hdrhistogram-swift")]),
        // Masking: `SecretMasker` (a secret found in any encoding a server gives it), the credentials a request
        // carries, netrc passwords. Below the runner and every part of it that shows text; imports no other part.
        .target(
            name: "APITestSecrets", dependencies: ["APITestHTTP", "APITestJSON", "APITestSecurity", "APITestSupport"]),
        // The checks of a response: `ResponseChecker` (expectations and captures) with its query, filter and predicate
        // evaluators, `ResponseBody` and its plan, and `ContractChecker` with its coverage counts. No runner, no
        // reproduce, auth or load: a check is a function of a response, a suite's expectations and a masker.
        .target(
            name: "APITestChecks",
            dependencies: [
                "APITestHTTP", "APITestSuite", "APITestResults", "APITestJSON", "APITestJSONSchema", "APITestOpenAPI",
                "APITestSecrets", "APITestSupport",
            ]
        ),
        // OAuth2: the run's token store (single flight, renewal, kept failures; its state machine), the grant and the
        // token, the client that sends a token request the runner builds, Bearer challenges. No runner, checks,
        // reproduce or load: the token request comes in as a closure.
        .target(
            name: "APITestAuth",
            dependencies: ["APITestHTTP", "APITestSuite", "APITestJSON", "APITestSecrets", "APITestSupport"]),
        // A request as a curl command: `CurlCommandWriter` (URL, headers, body, auth schemes, transport and TLS
        // settings, quoted for the shell) over `ReproduceSentinels`, the stand-ins for secrets and unknown captures. No
        // runner, checks, auth or load: the runner renders the request and hands it over.
        .target(
            name: "APITestReproduce",
            dependencies: [
                "APITestHTTP", "APITestJSON", "APITestResults", "APITestSecrets", "APITestSecurity", "APITestSuite",
                "APITestSupport",
            ]
        ),
        .target(
            name: "APITestRunner",
            dependencies: [
                "APITestHTTP", "APITestSuite", "APITestResults", "APITestJSON", "APITestSecurity", "APITestSupport",
                "APITestOpenAPI", "APITestSecrets", "APITestChecks", "APITestAuth", "APITestReproduce",
                // `grpc:` steps: messages encoded and decoded with the suite's schema, or a server's through
                // reflection.
                "APITestProtobuf", "APITestGRPC",
            ]
        ),
        // The load mode: `LoadService` and `LoadRunner` (arrivals by a `LoadSchedule` or virtual users, tests picked by
        // `WeightedPicker`), `LoadRecorder` and `LoadOptions`. Above the runner, unlike checks, reproduce and auth: a
        // load iteration is the runner's test (`SuiteIterations`: the same executor, setup and teardown), so it
        // imports APITestRunner, which imports no load type.
        .target(
            name: "APITestLoad",
            dependencies: ["APITestRunner", "APITestHTTP", "APITestResults", "APITestSuite", "APITestSupport"]),
        .target(name: "APITestReporting", dependencies: ["APITestResults", "APITestSupport"]),
        // Traces over OTLP/HTTP (JSON or protobuf, written here rather than with swift-otel, whose build pulls
        // swift-nio and gRPC): the `OTEL_*` settings, the span of each run, suite, test attempt and step built from
        // sealed results, and the exporter, which posts through the HTTP layer. See docs/tracing.md.
        .target(
            name: "APITestTelemetry",
            // APITestProtobuf: the wire format OTLP's protobuf export is written in.
            dependencies: ["APITestResults", "APITestHTTP", "APITestJSON", "APITestProtobuf", "APITestSupport"]),

        // MARK: - Executables
        .executableTarget(
            name: "APITestCLI",
            // APITestSecurity: the TLS flags of `run` and `pin-check` make its overrides. No APITestHTTP: the run,
            // the transport's set-up and the handshake check go through APITestRunner's services.
            dependencies: [
                "APITestRunner", "APITestLoad", "APITestReporting", "APITestSuite", "APITestResults", "APITestSupport",
                "APITestSecurity", "APITestGenerate", "APITestImport", "APITestSuiteWriting", "APITestYAML",
                "APITestContractTesting", "APITestTelemetry",
                "CLibraryVersions", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // mimalloc (Debian's libmimalloc-dev) is the process's allocator: glibc's malloc cost the run 6-17 % of
            // its CPU (bench/README.md, tenth session). Only the executable links it; the test binaries keep glibc's.
            linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "DemoAPI",
            dependencies: ["CZlib", .product(name: "Hummingbird", package: "hummingbird")]
        ),

        // MARK: - Protobuf
        // `.proto` schemas as descriptors (its own wire reader, no swift-protobuf) and the dynamic codec between the
        // protobuf JSON mapping and the binary wire format, for gRPC steps.
        .target(name: "APITestProtobuf", dependencies: ["APITestJSON", "APITestSupport"]),
        // gRPC server reflection (`grpc.reflection.v1`, `v1alpha`): a server's descriptors fetched over the HTTP
        // layer's gRPC transport and made into a schema; the request and answer messages encoded by hand.
        .target(name: "APITestGRPC", dependencies: ["APITestHTTP", "APITestProtobuf", "APITestSupport"]),

        // MARK: - Fuzzing
        // The parsers and decoders of untrusted input as fuzz targets (`FuzzTarget`), and `apitest-fuzz`, which runs
        // one with libFuzzer (`scripts/fuzz.sh`: `-sanitize=fuzzer -D APITEST_LIBFUZZER`) or its own mutation loop.
        .target(
            name: "APITestFuzzing",
            dependencies: [
                "APITestSuite", "APITestJSON", "APITestImport", "APITestOpenAPI", "APITestSupport",
                "APITestSuiteWriting", "APITestProtobuf",
            ]),
        .executableTarget(name: "APITestFuzz", dependencies: ["APITestFuzzing"]),

        // MARK: - Tests
        // What several test targets share: the seeded generator, the location of ../shared and the scripted
        // transport of the runner's unit tests.
        .target(name: "APITestTestSupport", dependencies: ["APITestHTTP"], path: "Tests/TestSupport"),
        .testTarget(name: "APITestJSONTests", dependencies: ["APITestJSON", "APITestTestSupport"]),
        .testTarget(name: "APITestSecurityTests", dependencies: ["APITestSecurity"]),
        .testTarget(
            name: "APITestJSONSchemaTests", dependencies: ["APITestJSONSchema", "APITestJSON", "APITestTestSupport"]),
        // CCurlShim: the transfer state machine's tests name libcurl's result codes.
        .testTarget(
            name: "APITestHTTPTests",
            dependencies: [
                "APITestHTTP", "APITestJSON", "APITestSecurity", "APITestSupport", "CCurlShim", "APITestTestSupport",
            ]),
        // Yams is only the differential oracle of the YAML composer's tests.
        .testTarget(
            name: "APITestYAMLTests",
            dependencies: ["APITestYAML", "APITestJSON", .product(name: "Yams", package: "Yams")]),
        .testTarget(
            name: "APITestSuiteTests",
            dependencies: [
                "APITestSuite", "APITestSupport", "APITestJSON", "APITestSecurity", "APITestOpenAPI", "APITestYAML",
                "APITestProtobuf",
            ]
        ),
        .testTarget(
            name: "APITestRunnerTests",
            dependencies: [
                "APITestRunner", "APITestSuite", "APITestResults", "APITestJSON", "APITestHTTP", "APITestTestSupport",
                "APITestSecurity", "APITestSupport", "APITestSecrets",
            ]
        ),
        .testTarget(name: "APITestSecretsTests", dependencies: ["APITestSecrets", "APITestHTTP", "APITestJSON"]),
        .testTarget(
            name: "APITestAuthTests", dependencies: ["APITestAuth", "APITestHTTP", "APITestSuite", "APITestSupport"]),
        .testTarget(
            name: "APITestReproduceTests",
            dependencies: [
                "APITestReproduce", "APITestResults", "APITestSecrets", "APITestSuite", "APITestSupport",
                "APITestTestSupport", "APITestJSON",
            ]),
        .testTarget(
            name: "APITestLoadTests",
            dependencies: [
                "APITestLoad", "APITestRunner", "APITestHTTP", "APITestResults", "APITestSuite", "APITestSupport",
                // Histogram: LatencyHistogramTests compares the figures with HDR's own fixed-range histogram.
                "APITestTestSupport", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .testTarget(
            name: "APITestChecksTests",
            dependencies: [
                "APITestChecks", "APITestHTTP", "APITestJSON", "APITestSecrets", "APITestSuite", "APITestSupport",
            ]
        ),
        .testTarget(
            name: "APITestTelemetryTests",
            dependencies: ["APITestTelemetry", "APITestResults", "APITestHTTP", "APITestTestSupport"]),
        .testTarget(
            name: "APITestReportingTests",
            dependencies: ["APITestReporting", "APITestResults", "APITestSupport", "APITestTestSupport"]),
        .testTarget(
            name: "APITestCLITests",
            dependencies: [
                // APITestRunner and APITestSuite: the TLS flags' and option groups' conversions are checked against
                // the values the runner and the loader receive.
                "APITestCLI", "APITestTestSupport", "APITestSecurity", "APITestRunner", "APITestSuite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Yams reads the YAML fixtures (the OpenAPI Initiative's examples) for the tests' own reader.
        .testTarget(
            name: "APITestOpenAPITests",
            dependencies: [
                "APITestOpenAPI", "APITestJSON", "APITestJSONSchema", "APITestSupport", "APITestTestSupport",
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["Fixtures"]
        ),
        // APITestSuite: generated suites are loaded by the suite loader (every scalar the emitter writes must read back).
        .testTarget(
            name: "APITestGenerateTests",
            dependencies: [
                "APITestGenerate", "APITestOpenAPI", "APITestSuite", "APITestJSON", "APITestSupport",
                "APITestSuiteWriting", "APITestYAML",
            ]
        ),
        // APITestSuite: every imported suite is loaded by the suite loader, as `apitest validate` would.
        .testTarget(
            name: "APITestImportTests",
            dependencies: [
                "APITestImport", "APITestSuite", "APITestJSON", "APITestSupport", "APITestSuiteWriting",
                "APITestTestSupport",
            ],
            // The Postman collections and HAR archives the tests import (with their licence).
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "APITestContractTestingTests",
            dependencies: [
                "APITestContractTesting", "APITestOpenAPI", "APITestJSON", "APITestJSONSchema", "APITestSupport",
            ]),
        // Replays the fuzz targets' seed corpus (Fuzz/corpus) and a seeded mutation pass on every test run.
        .testTarget(name: "APITestFuzzingTests", dependencies: ["APITestFuzzing"]),
        // Python's protobuf (PyPI) is the oracle of the codec's tests; the fixtures are .proto files.
        .testTarget(
            name: "APITestProtobufTests", dependencies: ["APITestProtobuf", "APITestJSON", "APITestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "APITestHTTP", "APITestJSON", "APITestSecurity", "APITestTestSupport", "APITestSupport",
                // The reflection client's tests against grpcio-reflection compile their schema with ProtocRunner.
                "APITestGRPC", "APITestProtobuf",
            ],
            exclude: ["cases", "Fixtures"]),
    ]
)

// Every Swift target of the package, tests included (the C targets have no Swift sources). Imports are internal
// unless written `package import` or `public import` (Hummingbird's setting): what a target's API exposes of
// another module is declared where it happens.
for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + strictImports
}
