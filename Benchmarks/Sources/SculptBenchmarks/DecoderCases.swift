import Foundation
import Sculpt
import SculptMatchers

extension Cases {
    /// `SculptJSONDecoder` against `JSONDecoder` on the same bytes and types (issue #17's
    /// payloads), then through a serializer on the URLSession path.
    static func decoders() throws -> [Case] {
        let foundation = JSONDecoder(), sculpt = SculptJSONDecoder()
        let snakeFoundation = JSONDecoder()
        snakeFoundation.keyDecodingStrategy = .convertFromSnakeCase
        var snakeSculpt = SculptJSONDecoder()
        snakeSculpt.keyDecodingStrategy = .convertFromSnakeCase
        return [
            Case(name: "SculptJSONDecoder, 1.2 KB user", baselineName: "JSONDecoder.decode", target: 0.67) {
                let data = Payloads.userJSON
                return Sides(
                    sculpt: { consume(try sculpt.decode(GitHubUser.self, from: data)) },
                    baseline: { consume(try foundation.decode(GitHubUser.self, from: data)) })
            },
            Case(name: "SculptJSONDecoder, 220 KB issues", baselineName: "JSONDecoder.decode", target: 0.67) {
                let data = Payloads.issuesJSON
                return Sides(
                    sculpt: { consume(try sculpt.decode([Issue].self, from: data)) },
                    baseline: { consume(try foundation.decode([Issue].self, from: data)) })
            },
            Case(name: "SculptJSONDecoder, 5 MB array", baselineName: "JSONDecoder.decode", target: 0.67) {
                let data = Payloads.largeArrayJSON
                return Sides(
                    sculpt: { consume(try sculpt.decode([Item].self, from: data)) },
                    baseline: { consume(try foundation.decode([Item].self, from: data)) })
            },
            Case(name: "SculptJSONDecoder, Stack Exchange wrapper", baselineName: "JSONDecoder.decode", target: 0.67) {
                let data = Payloads.wrapperJSON
                return Sides(
                    sculpt: { consume(try sculpt.decode(QuestionWrapper.self, from: data)) },
                    baseline: { consume(try foundation.decode(QuestionWrapper.self, from: data)) })
            },
            Case(name: "SculptJSONDecoder, Stripe invoice, snake_case", baselineName: "JSONDecoder.decode", target: 0.67) {
                let data = Payloads.stripeInvoiceJSON
                return Sides(
                    sculpt: { consume(try snakeSculpt.decode(StripeInvoice.self, from: data)) },
                    baseline: { consume(try snakeFoundation.decode(StripeInvoice.self, from: data)) })
            },
            Case(name: "SculptJSONDecoder, 100 issues keyed by id", baselineName: "JSONDecoder.decode", target: 0.67) {
                let data = Payloads.issuesByIDJSON
                return Sides(
                    sculpt: { consume(try sculpt.decode([String: Issue].self, from: data)) },
                    baseline: { consume(try foundation.decode([String: Issue].self, from: data)) })
            },
            Case(name: "SculptJSONDecoder, 10,000 counts keyed by name", baselineName: "JSONDecoder.decode", target: 0.67) {
                let data = Payloads.countsJSON
                return Sides(
                    sculpt: { consume(try sculpt.decode([String: Int].self, from: data)) },
                    baseline: { consume(try foundation.decode([String: Int].self, from: data)) })
            },
            Case(name: "SculptJSONDecoder, 10,000 records with keys past ASCII", baselineName: "JSONDecoder.decode", target: 1.0) {
                let data = Payloads.nonASCIIKeysJSON
                return Sides(
                    sculpt: { consume(try sculpt.decode([Ort].self, from: data)) },
                    baseline: { consume(try foundation.decode([Ort].self, from: data)) })
            },
            Case(name: "SculptJSONDecoder, one 1 MB string", baselineName: "JSONDecoder.decode", target: 1.0) {
                let data = Payloads.longStringJSON
                return Sides(
                    sculpt: { consume(try sculpt.decode([String].self, from: data)) },
                    baseline: { consume(try foundation.decode([String].self, from: data)) })
            },
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
}
