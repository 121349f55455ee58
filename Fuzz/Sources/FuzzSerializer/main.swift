// The whole pipeline: the first line is `STATUS METHOD PATH CONTENT-TYPE`, the rest the body.
// Whatever arrives, the serializer returns a model or throws a SculptError that keeps the body
// and has a bounded description.
import Foundation
import FuzzSupport
import HTTPTypes
import Sculpt
import SculptMatchers

struct Question: Decodable, Sendable { var title: String }
struct Problem: Decodable, Sendable { var message: String }

let serializer: ModelResponseSerializer<FirstMatchModelMatcher> = {
    var routes = URLModelMatcher(pathPrefix: "/v2")
    var types = TypeFieldModelMatcher(field: "type")
    types.unknownValuesMatchNothing = true
    do {
        try routes.add("/questions/#", Question.self)
        try routes.add("/questions", [Question].self, at: "items")
        try routes.add("/search/**", [AnyJSON].self, at: "data.items[0]")
        try routes.add("/raw/*", AnyJSON.self, method: .post)
        try types.add("question", Question.self)
        try types.add("list", LossyArray<Question>.self, at: "data")
        try types.add("7", AnyJSON.self)
    } catch {
        require(false, "the fixed matchers do not compile: \(error)")
    }
    return ModelResponseSerializer(
        matcher: FirstMatchModelMatcher([types, routes, StaticModelMatcher(AnyJSON.self)]),
        errorMatcher: StaticModelMatcher(Problem.self))
}()

runFuzzer { input in
    let (head, body) = input.headAndRest
    let words = head.split(separator: " ", maxSplits: 3).map(String.init)
    let status = words.first.flatMap { Int($0) }.map { HTTPResponse.Status(code: min(max($0, 100), 999)) } ?? .ok
    let method = words.count > 1 ? HTTPRequest.Method(words[1]) : nil
    let url = words.count > 2 ? URL(string: "https://api.example.com" + words[2]) : nil
    var fields = HTTPFields()
    if words.count > 3 { fields[.contentType] = words[3] }
    let context = ResponseContext(url: url, method: method ?? .get, status: status, headerFields: fields)
    do {
        _ = try serializer.serialize(body, for: context)
    } catch let error as SculptError {
        require(error.body == body, "the error lost the body")
        let description = String(describing: error)
        require(description.utf8.count <= 16_384 + 4 * head.utf8.count, "a \(description.utf8.count)-byte error description")
    } catch {
        require(false, "not a SculptError: \(error)")
    }
}
