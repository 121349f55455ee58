import Foundation
import Sculpt

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
        ]
    }
}
