// XML and content negotiation: the first line is `STATUS CONTENT-TYPE`, the rest the body. One
// serializer holds JSON, XML and property-list decoders, routes with XML key paths, and an error
// model at a SOAP fault's key path. Whatever arrives, it returns a model or throws a SculptError
// that keeps the body and has a bounded description; an external entity is never read.
import Foundation
import FuzzSupport
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptXML

struct Item: Decodable, Sendable { var title: String? }
struct Fault: ErrorResponseModel { var faultcode: String }

/// A file an external entity could name: its content must never reach a model or an error.
let secretFile: URL = {
    let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-fuzz-xxe")
    try? Data("XXE-SECRET-CONTENT".utf8).write(to: file)
    return file
}()

let serializer: ModelResponseSerializer<FirstMatchModelMatcher> = {
    var routes = URLModelMatcher()
    do {
        try routes.add("/feed.xml", [Item].self, at: "channel.item")
    } catch {
        require(false, "the fixed routes do not compile: \(error)")
    }
    return ModelResponseSerializer(
        matcher: FirstMatchModelMatcher([routes]),
        decoders: [.json(), .xml(XMLModelDecoder { $0.shouldProcessNamespaces = true }), .propertyList()],
        errorMatcher: StaticModelMatcher(Fault.self, at: "Body.Fault"))
}()

runFuzzer { input in
    _ = secretFile
    let (head, body) = input.headAndRest
    let words = head.split(separator: " ", maxSplits: 1).map(String.init)
    let status = words.first.flatMap { Int($0) }.map { HTTPResponse.Status(code: min(max($0, 100), 999)) } ?? .ok
    var fields = HTTPFields()
    if words.count > 1 { fields[.contentType] = words[1] }
    let context = ResponseContext(url: URL(string: "https://news.example.org/feed.xml"), method: .get, status: status, headerFields: fields)
    do throws(SculptError) {
        let items = try serializer.serialize(body, for: context, as: [Item].self)
        require(!items.contains { $0.title?.contains("XXE-SECRET") == true }, "an external entity was read into a model")
    } catch {
        require(error.body == body, "the error lost the body")
        let description = String(describing: error)
        require(description.utf8.count <= 16_384 + 4 * head.utf8.count, "a \(description.utf8.count)-byte error description")
        require(!description.contains("XXE-SECRET"), "an external entity was read into an error")
    }
}
