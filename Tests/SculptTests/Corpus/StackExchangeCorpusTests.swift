import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import Testing

/// A Stack Exchange recording and the wrapper `type` the API gives its items (`.wrapper.type`).
struct StackExchangeRecording: CustomTestStringConvertible, Sendable {
    var file: String
    var url: URL
    var body: Data
    var itemCount: Int?
    var testDescription: String { file }

    /// The API's `type` for the items of each route, from its documentation.
    static let itemTypes: [String: String] = [
        "/*/answers": "answer", "/*/users/*/merges": "account_merge", "/*/users/*/top-answer-tags": "top_tag",
        "/*/users/*/reputation-history": "reputation_history", "/*/comments/*/delete": "comment", "/*/users": "user",
        "/*/questions": "question", "/*/sites": "site", "/*/filters/*": "filter", "/*/inbox": "inbox_item",
    ]

    static func all() -> [StackExchangeRecording] {
        let bodies = Dictionary(uniqueKeysWithValues: CorpusFiles.json(in: "stackexchange").map { ($0.name, $0.data) })
        return CorpusFiles.index(of: "stackexchange").compactMap { entry in
            guard let file = entry["file"] as? String, let body = bodies[file],
                let url = (entry["url"] as? String).flatMap(URL.init(string:))
            else { return nil }
            return StackExchangeRecording(file: file, url: url, body: body, itemCount: entry["item_count"] as? Int)
        }
    }

    /// The body with the wrapper's `type` added after everything else, as the API sends it when
    /// the filter asks for it: the tag comes last, after the items.
    func bodyTagged(_ type: String) throws -> Data {
        let text = String(decoding: body, as: UTF8.self)
        let end = try #require(text.lastIndex(of: "}"))
        return Data((text[..<end] + #","type":"\#(type)"}"#).utf8)
    }
}

private struct Wrapper: Decodable, Sendable, Equatable {
    let hasMore: Bool
    let quotaMax: Int
    let quotaRemaining: Int
}

private struct StackExchangeError: Decodable, Sendable {
    let errorId: Int
    let errorName: String
    let errorMessage: String
}

@Suite("Stack Exchange recordings")
struct StackExchangeCorpusTests {
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    /// Each route's URL pattern (under any API version), by the URL matcher.
    private func routes() throws -> URLModelMatcher {
        var routes = URLModelMatcher()
        for pattern in StackExchangeRecording.itemTypes.keys {
            try routes.add(pattern, AnyJSON.self)
        }
        return routes
    }

    /// The wrapper's tag selects the element type of its sibling `items`.
    private func byWrapperType() throws -> TypeFieldModelMatcher {
        var matcher = TypeFieldModelMatcher(field: "type")
        for type in Set(StackExchangeRecording.itemTypes.values) {
            try matcher.add(type, [AnyJSON].self, at: "items")
        }
        matcher.fallback = ModelType(StackExchangeError.self)
        return matcher
    }

    @Test("a wrapper-level tag after the items selects the items' type", arguments: StackExchangeRecording.all())
    func wrapperTag(_ recording: StackExchangeRecording) throws {
        let route = try #require(try routes().route(for: recording.url), "no route for \(recording.url)")
        let type = try #require(StackExchangeRecording.itemTypes[route.pattern.description])
        let body = recording.itemCount == nil ? recording.body : try recording.bodyTagged(type)
        let serializer = ModelResponseSerializer(matcher: try byWrapperType(), decoder: Self.decoder)
        let model = try serializer.serialize(body, for: ResponseContext(url: recording.url, method: .get))
        if let itemCount = recording.itemCount {
            #expect((model as? [AnyJSON])?.count == itemCount)
        } else {
            #expect(model is StackExchangeError, "the error wrapper has no items and no type: the fallback takes it")
        }
    }

    @Test("an envelope gives the wrapper's metadata, negative quotas included, beside the items", arguments: StackExchangeRecording.all().filter { $0.itemCount != nil })
    func envelope(_ recording: StackExchangeRecording) throws {
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([AnyJSON].self, at: "items"), decoder: Self.decoder)
            .enveloped(in: Wrapper.self)
        let page = try serializer.serialize(recording.body, for: ResponseContext(url: recording.url, method: .get), as: [AnyJSON].self)
        let raw = try #require(try JSONSerialization.jsonObject(with: recording.body) as? [String: Any])
        #expect(page.meta == Wrapper(
            hasMore: try #require(raw["has_more"] as? Bool), quotaMax: try #require(raw["quota_max"] as? Int),
            quotaRemaining: try #require(raw["quota_remaining"] as? Int)))
        #expect(page.value.count == recording.itemCount)
    }
}
