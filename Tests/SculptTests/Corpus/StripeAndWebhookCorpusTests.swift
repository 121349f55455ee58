import Foundation
import Sculpt
import SculptMatchers
import Testing

private struct Coupon: Decodable, Sendable { let id: String; let object: String }
private struct Plan: Decodable, Sendable { let id: String; let object: String }
private struct Refund: Decodable, Sendable { let id: String; let object: String }
private struct Tagged: Decodable { let object: String }

private enum StripeObjects: TypeFieldFamily {
    static let field = "object"
    static let types: [String: any (Decodable & Sendable).Type] = ["coupon": Coupon.self, "plan": Plan.self, "refund": Refund.self]
}

private enum AnyStripeObject: TypeFieldFamily {
    static let field = "object"
    static let types = StripeObjects.types
    static let fallback: (any (Decodable & Sendable).Type)? = AnyJSON.self
}

private struct ListMeta: Decodable, Sendable {
    let object: String
    let hasMore: Bool
    let url: String

    enum CodingKeys: String, CodingKey {
        case object, url
        case hasMore = "has_more"
    }
}

@Suite("Stripe and webhook samples")
struct StripeAndWebhookCorpusTests {
    private static let stripe = CorpusFiles.json(in: "stripe")

    /// A Stripe list of every sample, their bytes as recorded.
    private static var list: Data {
        Data(#"{"object":"list","data":["#.utf8) + Data(stripe.map(\.data).joined(separator: Data(",".utf8)))
            + Data(#"],"has_more":false,"url":"/v1/samples"}"#.utf8)
    }

    @Test("the peek reads each sample's object as JSONDecoder does")
    func peek() throws {
        let matcher = TypeFieldModelMatcher(field: "object")
        for sample in Self.stripe {
            let object = try JSONDecoder().decode(Tagged.self, from: sample.data).object
            let error = #expect(throws: SculptError.self, "\(sample.name)") { try matcher.modelType(for: response(), data: sample.data) }
            #expect(error?.reason.name == "unknownDiscriminator", "\(sample.name)")
            if case .unknownDiscriminator(_, let found, _)? = error?.reason { #expect(found == "\"\(object)\"", "\(sample.name)") }
        }
        #expect(Self.stripe.count > (Paths.corpusIsShared ? 50 : 8))
    }

    @Test("a list of every sample: the registered kinds decode, the others are skipped and reported")
    func lossyList() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(LossyPolymorphicArray<StripeObjects>.self, at: "data"))
            .enveloped(in: ListMeta.self)
        let page = try serializer.serialize(Self.list, for: response("https://api.stripe.com/v1/samples"), as: LossyPolymorphicArray<StripeObjects>.self)
        let objects = try Self.stripe.map { try JSONDecoder().decode(Tagged.self, from: $0.data).object }
        let registered = objects.filter { StripeObjects.types[$0] != nil }
        #expect(page.meta.object == "list")
        #expect(!page.meta.hasMore)
        #expect(page.value.elements.count == registered.count)
        #expect(registered.count >= 4)
        #expect(page.value.skipped.map(\.tag) == objects.filter { StripeObjects.types[$0] == nil })
        #expect(page.value.elements.allSatisfy { $0 is Coupon || $0 is Plan || $0 is Refund })
    }

    @Test("with a fallback, the strict array decodes every sample")
    func strictList() throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(PolymorphicArray<AnyStripeObject>.self, at: "data"))
        let array = try serializer.serialize(Self.list, for: response(), as: PolymorphicArray<AnyStripeObject>.self)
        #expect(array.elements.count == Self.stripe.count)
        #expect(array.elements.filter { $0 is AnyJSON }.count == Self.stripe.count - array.elements.filter { !($0 is AnyJSON) }.count)
    }

    @Test("webhook payloads: nested fields peek as the index records them")
    func webhooks() throws {
        let payloads = Dictionary(uniqueKeysWithValues: CorpusFiles.json(in: "github-webhooks").map { ($0.name, $0.data) })
        let index = CorpusFiles.index(of: "github-webhooks")
        #expect(index.count > (Paths.corpusIsShared ? 20 : 5))
        for entry in index {
            let file = try #require(entry["file"] as? String)
            let body = try #require(payloads[file], "\(file) is in the index but not on disk")
            for (field, expected) in [("action", entry["action"] as? String), ("sender.type", entry["sender_type"] as? String)] {
                var matcher = TypeFieldModelMatcher(field: field)
                matcher.unknownValuesMatchNothing = true
                if let expected { try matcher.add(expected, ModelA.self) }
                let matched = try matcher.modelType(for: response(), data: body)
                #expect((matched != nil) == (expected != nil), "\(file): \(field)")
            }
        }
    }

    @Test("webhook payloads as a per-element array tagged by action")
    func webhookArray() throws {
        let payloads = CorpusFiles.json(in: "github-webhooks")
        enum Actions: TypeFieldFamily {
            static let field = "action"
            static let types: [String: any (Decodable & Sendable).Type] = ["opened": AnyJSON.self, "created": AnyJSON.self, "deleted": AnyJSON.self]
        }
        let body = Data("[".utf8) + Data(payloads.map(\.data).joined(separator: Data(",".utf8))) + Data("]".utf8)
        let array = try ModelResponseSerializer(matcher: StaticModelMatcher(LossyPolymorphicArray<Actions>.self))
            .serialize(body, for: response(), as: LossyPolymorphicArray<Actions>.self)
        let actions = CorpusFiles.index(of: "github-webhooks").map { $0["action"] as? String }
        #expect(array.elements.count == actions.filter { ["opened", "created", "deleted"].contains($0) }.count)
        #expect(array.elements.count + array.skipped.count == payloads.count)
    }
}
