import Foundation
import Sculpt
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
        #expect(page.result as? [Label] == [Label(name: "bug", color: "f00")])
        let typed = try serializer().serialize(body, for: response("https://x/labels"), as: [Label].self)
        #expect(typed.result == [Label(name: "bug", color: "f00")])
        #expect(typed.meta.meta.total == 40)
    }

    @Test("a metadata failure names the metadata type")
    func metaFails() throws {
        let broken = Data.json(#"{"status":"ok","meta":{"page":"two"},"data":{"items":[]}}"#)
        let error = thrownError { try serializer().serialize(broken, for: response("https://x/labels")) }
        guard case .decodingFailed(let modelType, _, let context) = error as? SculptError else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(modelType == ModelType(Page.self))
        #expect(context.body == broken)
        #expect("\(error!)".contains("At meta.page: expected Int."))
    }

    @Test("a result failure names the result type and key path")
    func resultFails() throws {
        let error = thrownError { try serializer().serialize(body, for: response("https://x/missing")) }
        guard case .keyPathNotFound(let miss, _) = error as? SculptError else {
            Issue.record("expected keyPathNotFound, got \(String(describing: error))")
            return
        }
        #expect(miss.failedAt == "data.rows")
        #expect(miss.availableKeys == ["items"])
    }

    @Test("the base pipeline still applies: status, content type, match, type agreement")
    func pipeline() throws {
        #expect(thrownError { try serializer().serialize(body, for: response("https://x/labels", status: .notFound)) } != nil)
        #expect(thrownError { try serializer().serialize(body, for: response("https://x/labels", contentType: "text/html")) } != nil)
        #expect(thrownError { try serializer().serialize(body, for: response("https://x/other")) } != nil)
        let mismatch = thrownError { try serializer().serialize(body, for: response("https://x/labels"), as: Label.self) }
        guard case .typeMismatch = mismatch as? SculptError else {
            Issue.record("expected typeMismatch, got \(String(describing: mismatch))")
            return
        }
    }

    @Test("a bodiless response has metadata only when the metadata type allows none")
    func bodiless() throws {
        let context = response("https://x/labels", method: .delete, status: .noContent, contentType: nil)
        #expect(thrownError { try serializer().serialize(Data(), for: context) } != nil)
        var routes = URLModelMatcher()
        try routes.add("/labels", [Label].self, at: "data.items")
        let optionalMeta = ModelResponseSerializer(matcher: routes).enveloped(in: Page?.self)
        let envelope = try optionalMeta.serialize(Data(), for: context)
        #expect(envelope.meta == nil)
        #expect(envelope.result is NoContent)
    }

    @Test("a body matched to an error model is thrown as the error, not returned as the result")
    func errorModel() throws {
        let refusal = Data.json(#"{"status":"refused","message":"quota exceeded"}"#)
        for error in [thrownError { try serializer().serialize(refusal, for: response("https://x/refused")) },
                      thrownError { try serializer().serialize(refusal, for: response("https://x/refused"), as: Refusal.self) }] {
            guard case .errorResponse(let model, let context) = error as? SculptError else {
                Issue.record("expected errorResponse, got \(String(describing: error))")
                continue
            }
            #expect(model as? Refusal == Refusal(status: "refused", message: "quota exceeded"))
            #expect(context.body == refusal)
        }
    }
}
