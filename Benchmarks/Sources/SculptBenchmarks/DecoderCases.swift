import Foundation
import Sculpt
import SculptJSON
import SculptMatchers

extension Cases {
    /// `SculptJSONDecoder` against `JSONDecoder` on the same bytes and types (issue #17's
    /// payloads), then through a serializer on the URLSession path.
    static func decoders() throws -> [Case] {
        let sculpt = SculptJSONDecoder()
        return [
            versus("1.2 KB user", GitHubUser.self, Payloads.userJSON),
            versus("1.2 KB user, 19 of its members, in key order", UserSummary.self, Payloads.userSortedJSON, target: 0.6),
            versus("1.2 KB user, 19 of its members, as JSONSerialization writes it", UserSummary.self, Payloads.userSerializedJSON, target: 0.6),
            versus("220 KB issues", [Issue].self, Payloads.issuesJSON),
            versus("5 MB array", [Item].self, Payloads.largeArrayJSON),
            versus("Stack Exchange wrapper", QuestionWrapper.self, Payloads.wrapperJSON),
            versus("Stripe invoice, snake_case", StripeInvoice.self, Payloads.stripeInvoiceJSON, snakeCase: true),
            versus("100 issues keyed by id", [String: Issue].self, Payloads.issuesByIDJSON),
            versus("10,000 counts keyed by name", [String: Int].self, Payloads.countsJSON),
            versus("10,000 records with keys past ASCII", [Ort].self, Payloads.nonASCIIKeysJSON, target: 1.0),
            versus("one 1 MB string", [String].self, Payloads.longStringJSON, target: 1.0),
            // The pipeline over the faster decoder: what Sculpt adds is a larger share of less.
            Case(name: "SculptJSONDecoder serializer, URLSession path, typed, 1.2 KB user", baselineName: "SculptJSONDecoder.decode", target: 1.03) {
                let user = Payloads.userJSON
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(GitHubUser.self), decoder: sculpt)
                let (response, request) = try Payloads.githubURLResponse(path: "/users/octocat")
                return Sides(
                    sculpt: { consume(try serializer.serialize(user, for: response, request: request, as: GitHubUser.self)) },
                    baseline: { consume(try sculpt.decode(GitHubUser.self, from: user)) })
            },
            Case(name: "SculptJSONDecoder serializer, key path data.items, 220 KB envelope", baselineName: "SculptJSONDecoder, envelope struct", target: 1.05) {
                let envelope = Payloads.envelopeJSON
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self, at: "data.items"), decoder: sculpt)
                let context = ResponseContext(url: URL(string: "https://api.github.com/issues"), headerFields: [.contentType: "application/json"])
                return Sides(
                    sculpt: { consume(try serializer.serialize(envelope, for: context, as: [Issue].self)) },
                    baseline: { consume(try sculpt.decode(IssueEnvelope.self, from: envelope).data.items) })
            },
            Case(name: "SculptJSONDecoder serializer, type field last, after a 200 KB string", baselineName: "SculptJSONDecoder.decode", target: 1.03) {
                let blob = Payloads.discriminatorLastJSON
                var types = TypeFieldModelMatcher(field: "type")
                try types.add("blob", Blob.self)
                let serializer = ModelResponseSerializer(matcher: types, decoder: sculpt)
                let context = ResponseContext(url: URL(string: "https://api.github.com/blobs/1"), headerFields: [.contentType: "application/json"])
                return Sides(
                    sculpt: { consume(try serializer.serialize(blob, for: context, as: Blob.self)) },
                    baseline: { consume(try sculpt.decode(Blob.self, from: blob)) })
            },
        ]
    }

    /// `SculptJSONDecoder` against `JSONDecoder`, set alike, decoding `type` from `data`.
    private static func versus<T: Decodable>(
        _ name: String, _ type: T.Type, _ data: @autoclosure @escaping () -> Data, snakeCase: Bool = false, target: Double = 0.67
    ) -> Case {
        Case(name: "SculptJSONDecoder, \(name)", baselineName: "JSONDecoder.decode", target: target) {
            let data = data()
            let foundation = JSONDecoder()
            var sculpt = SculptJSONDecoder()
            if snakeCase {
                foundation.keyDecodingStrategy = .convertFromSnakeCase
                sculpt.keyDecodingStrategy = .convertFromSnakeCase
            }
            return Sides(
                sculpt: { consume(try sculpt.decode(T.self, from: data)) },
                baseline: { consume(try foundation.decode(T.self, from: data)) })
        }
    }
}
