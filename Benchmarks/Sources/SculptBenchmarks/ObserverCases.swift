import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers

extension Cases {
    /// A decoding observer left on: its cost on responses that lose nothing, and on one that loses
    /// an element in ten, against the same serializer without one.
    static func observing() throws -> [Case] {
        let decoder = JSONDecoder()
        let context = ResponseContext(
            url: URL(string: "https://api.github.com/repos/apple/swift/issues"), method: .get, status: .ok,
            headerFields: [.contentType: "application/json; charset=utf-8"])
        func serializers<M: Decodable & Sendable>(_ type: M.Type) throws -> (plain: ModelResponseSerializer<URLModelMatcher>, observed: ModelResponseSerializer<URLModelMatcher>) {
            var routes = try RouteTable.github().sculpt(named: true)
            try routes.add("/repos/{owner}/{repo}/issues", M.self, method: .get)
            let plain = ModelResponseSerializer(matcher: routes, decoder: decoder)
            var observed = plain
            let heard = Counter()
            observed.decodingObserver = { _ in heard.add() }
            return (plain, observed)
        }
        return [
            Case(name: "observed LossyArray, 220 KB issues, none lost", baselineName: "the same, no observer", target: 1.03) {
                let issues = Payloads.issuesJSON, (plain, observed) = try serializers(LossyArray<Issue>.self)
                return Sides(
                    sculpt: { consume(try observed.serialize(issues, for: context, as: LossyArray<Issue>.self)) },
                    baseline: { consume(try plain.serialize(issues, for: context, as: LossyArray<Issue>.self)) })
            },
            Case(name: "observed LossyArray, 220 KB issues, 1 in 10 lost", baselineName: "the same, no observer", target: 1.1) {
                let issues = Payloads.issuesWithLossesJSON, (plain, observed) = try serializers(LossyArray<Issue>.self)
                return Sides(
                    sculpt: { consume(try observed.serialize(issues, for: context, as: LossyArray<Issue>.self)) },
                    baseline: { consume(try plain.serialize(issues, for: context, as: LossyArray<Issue>.self)) })
            },
            Case(name: "observed [Issue], 220 KB issues", baselineName: "the same, no observer", target: 1.03) {
                let issues = Payloads.issuesJSON, (plain, observed) = try serializers([Issue].self)
                return Sides(
                    sculpt: { consume(try observed.serialize(issues, for: context, as: [Issue].self)) },
                    baseline: { consume(try plain.serialize(issues, for: context, as: [Issue].self)) })
            },
        ]
    }
}

/// Counts the events an observer hears, from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}
