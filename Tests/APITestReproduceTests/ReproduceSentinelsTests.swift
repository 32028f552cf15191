import APITestJSON
import APITestSuite
import Testing

@testable import APITestReproduce

/// The stand-ins a reproduce command is rendered with: every secret and every capture not taken yet gets one, and
/// the stand-ins are found again in what was rendered.
@Suite struct ReproduceSentinelsTests {
    @Test func theShadowContextHoldsAStandInForEverySecretAndUnknownCapture() throws {
        let suite = try SuiteLoader(environment: [:]).load(
            source: "tests:\n  - name: one\n    request: {url: 'http://h.test/'}\n", file: "/tmp/shadow.yaml")
        let variable = TemplateContext.environmentPrefix + "TOKEN"
        var context = TemplateContext()
        context.set(variable, .string("s3cr3t-value"), secret: true)
        context.set("derived", .string("Bearer s3cr3t-value"), secret: true)
        context.set("plain", .string("shown"), secret: false)
        var sentinels = ReproduceSentinels()
        let shadow = sentinels.shadow(of: context, suite: suite, suiteContext: context, unknownCaptures: ["id"])
        var expected = sentinels
        #expect(shadow[variable] == .string(expected.token(for: .environment("TOKEN"))))
        #expect(shadow["derived"] == .string(expected.token(for: .derived("derived", given: false))))
        #expect(shadow["id"] == .string(expected.token(for: .capture("id"))))
        #expect(shadow["plain"] == .string("shown"))
        // What was rendered from the stand-ins names what each stands for.
        let rendered = Array(("x" + expected.token(for: .environment("TOKEN")) + "y").utf8)
        #expect(
            sentinels.parts(of: rendered) == [
                .literal(Array("x".utf8)), .reference(.environment("TOKEN")), .literal(Array("y".utf8)),
            ])
    }
}
