import APITestJSON
import APITestSupport
import Testing

@testable import APITestSuite

/// A request URL's secrets are percent-encoded as they are put in (`Template.renderURL`): one value the server
/// cannot split; everything else goes in as written.
@Suite struct TemplateURLRenderingTests {
    let here = SourceLocation(file: "f.yaml", line: 3, column: 10)

    var context: TemplateContext {
        var context = TemplateContext(environment: ["TOK": "ab&cd+ef gh=ij#k/%41é"])
        context.set("page", .string("a&b=c"), secret: false)
        context.set("key", .string("s+e/c=r"), secret: true)
        context.set("id", .integer(42), secret: false)
        return context
    }

    @Test func aSecretIsEncodedAndEverythingElseIsNot() throws {
        let template = try Template(
            parsing: "/echo?raw={{ env.TOK }}&page={{ page }}&id={{ id }}&k={{ key }}", location: here)
        #expect(
            try template.renderURL(context)
                == "/echo?raw=ab%26cd%2Bef%20gh%3Dij%23k%2F%2541%C3%A9&page=a&b=c&id=42&k=s%2Be%2Fc%3Dr")
        // Elsewhere (a header, a body) a secret goes in as it is.
        #expect(try template.render(context) == "/echo?raw=ab&cd+ef gh=ij#k/%41é&page=a&b=c&id=42&k=s+e/c=r")
    }

    @Test func anExpressionThatReadsASecretIsEncoded() throws {
        let template = try Template(parsing: "/x?t={{ upper(env.TOK) }}&p={{ upper(page) }}", location: here)
        #expect(try template.renderURL(context) == "/x?t=AB%26CD%2BEF%20GH%3DIJ%23K%2F%2541%C3%89&p=A&B=C")
    }

    /// Before the query a secret is URL text: the URL's start (every environment value is secret) or its path.
    @Test func aSecretBeforeTheQueryGoesInAsWritten() throws {
        var context = TemplateContext(environment: ["API_URL": "http://127.0.0.1:8080/v1", "TOK": "a&b"])
        context.set("id", .string("x/y"), secret: true)
        let template = try Template(parsing: "{{ env.API_URL }}/items/{{ id }}?token={{ env.TOK }}", location: here)
        #expect(try template.renderURL(context) == "http://127.0.0.1:8080/v1/items/x/y?token=a%26b")
        let query = try Template(parsing: "{{ env.API_URL }}?q=1", location: here)
        #expect(try query.renderURL(context) == "http://127.0.0.1:8080/v1?q=1")
    }

    @Test func unreservedCharactersStayAsTheyAre() throws {
        var context = TemplateContext(environment: ["JWT": "eyJ0.abc-DEF_ghi~9"])
        context.set("n", .string("x"), secret: false)
        let template = try Template(parsing: "/t?jwt={{ env.JWT }}", location: here)
        #expect(try template.renderURL(context) == "/t?jwt=eyJ0.abc-DEF_ghi~9")
    }
}
