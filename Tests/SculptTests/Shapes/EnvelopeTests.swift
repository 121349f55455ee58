import Foundation
import Sculpt
import SculptLoading
import SculptMatchers
import Testing

private struct Page: Decodable, Sendable, Equatable {
    let status: String
    let meta: Meta
    struct Meta: Decodable, Sendable, Equatable { let page: Int; let total: Int }
}

/// A body that says the request failed, whatever the status.
private struct Refusal: ErrorResponseModel, Equatable {
    let status: String
    let message: String
}

private let body = Data.json(#"{"status":"ok","meta":{"page":2,"total":40},"data":{"items":[{"name":"bug","color":"f00"}]}}"#)

private func serializer() throws -> EnvelopeResponseSerializer<Page, URLModelMatcher> {
    var routes = URLModelMatcher()
    try routes.add("/labels", [Label].self, at: "data.items")
    try routes.add("/missing", [Label].self, at: "data.rows")
    try routes.add("/refused", Refusal.self)
    return ModelResponseSerializer(matcher: routes).enveloped(in: Page.self)
}

@Suite("Envelopes")
struct EnvelopeTests {
    @Test("metadata and the result at the key path, in one decode")
    func envelope() throws {
        let page = try serializer().serialize(body, for: response("https://x/labels"))
        #expect(page.meta == Page(status: "ok", meta: .init(page: 2, total: 40)))
        #expect(page.value as? [Label] == [Label(name: "bug", color: "f00")])
        let typed = try serializer().serialize(body, for: response("https://x/labels"), as: [Label].self)
        #expect(typed.value == [Label(name: "bug", color: "f00")])
        #expect(typed.meta.meta.total == 40)
    }

    @Test("a metadata failure names the metadata type")
    func metaFails() throws {
        let broken = Data.json(#"{"status":"ok","meta":{"page":"two"},"data":{"items":[]}}"#)
        let error = try #require(throws: SculptError.self) { try serializer().serialize(broken, for: response("https://x/labels")) }
        #expect(error.reason.name == "decodingFailed")
        if case .decodingFailed(let modelType, _) = error.reason { #expect(modelType == ModelType(Page.self)) }
        #expect(error.body == broken)
        #expect(error.description.split(separator: "\n").dropFirst().first?.hasPrefix("At meta.page: expected Int.") == true)
    }

    @Test("a result failure names the result type and key path")
    func resultFails() throws {
        let error = try #require(throws: SculptError.self) { try serializer().serialize(body, for: response("https://x/missing")) }
        #expect(error.reason.name == "keyPathNotFound")
        if case .keyPathNotFound(let miss) = error.reason {
            #expect(miss == SculptError.KeyPathMiss(keyPath: "data.rows", failedAt: "data.rows", availableKeys: ["items"]))
        }
    }

    @Test("the base pipeline still applies: status, content type, match, type agreement", arguments: [
        (response("https://x/labels", status: .notFound), "unacceptableStatusCode"),
        (response("https://x/labels", contentType: "text/html"), "unacceptableContentType"),
        (response("https://x/other"), "noModelMatched"),
    ])
    func pipeline(_ context: ResponseContext, _ reason: String) throws {
        let untyped = #expect(throws: SculptError.self) { try serializer().serialize(body, for: context) }
        let typed = #expect(throws: SculptError.self) { try serializer().serialize(body, for: context, as: [Label].self) }
        #expect(untyped?.reason.name == reason)
        #expect(typed?.reason.name == reason)
    }

    @Test("asking for another type than the matcher's is a type mismatch")
    func typeMismatch() throws {
        let error = try #require(throws: SculptError.self) { try serializer().serialize(body, for: response("https://x/labels"), as: Label.self) }
        #expect(error.reason.name == "typeMismatch")
        if case .typeMismatch(let expected, let matched) = error.reason {
            #expect(expected is Label.Type)
            #expect(matched == ModelType([Label].self, at: "data.items"))
        }
    }

    @Test("a bodiless response has metadata only when the metadata type allows none")
    func bodiless() throws {
        let context = response("https://x/labels", method: .delete, status: .noContent, contentType: nil)
        let error = try #require(throws: SculptError.self) { try serializer().serialize(Data(), for: context) }
        #expect(error.reason.name == "emptyBody")
        if case .emptyBody(let expected) = error.reason { #expect(expected == "Page") }
        var routes = URLModelMatcher()
        try routes.add("/labels", [Label].self, at: "data.items")
        let optionalMeta = ModelResponseSerializer(matcher: routes).enveloped(in: Page?.self)
        let envelope = try optionalMeta.serialize(Data(), for: context)
        #expect(envelope.meta == nil)
        #expect(envelope.value is NoContent)
    }

    @Test("a body matched to an error model is thrown as the error, not returned as the result")
    func errorModel() throws {
        let refusal = Data.json(#"{"status":"refused","message":"quota exceeded"}"#)
        let untyped = #expect(throws: SculptError.self) { try serializer().serialize(refusal, for: response("https://x/refused")) }
        let typed = #expect(throws: SculptError.self) { try serializer().serialize(refusal, for: response("https://x/refused"), as: Refusal.self) }
        for error in [untyped, typed] {
            #expect(error?.reason.name == "errorResponse")
            #expect(error?.errorModel(as: Refusal.self) == Refusal(status: "refused", message: "quota exceeded"))
            #expect(error?.body == refusal)
        }
    }

    @Test("an envelope's result is typed as its serialize is, and fails with the same reason")
    func typedResult() throws {
        let page = try serializer().result(body, for: response("https://x/labels"), as: [Label].self).get()
        #expect(page.value == (try serializer().serialize(body, for: response("https://x/labels"), as: [Label].self)).value)
        guard case .failure(let error) = try serializer().result(body, for: response("https://x/other"), as: [Label].self) else {
            Issue.record("an unmatched path gave a value")
            return
        }
        #expect(error.reason.name == "noModelMatched")
    }
}
