import Foundation
import Sculpt
import SculptMatchers
import SculptXML
import XMLCoder

extension Cases {
    /// A serializer that chooses its decoder by `Content-Type`, against the decoder alone: the
    /// choice on the URLSession path, and an XML feed's items at a key path against XMLCoder
    /// decoding the whole document, as a user of XMLCoder alone writes it.
    static func negotiation() throws -> [Case] {
        let decoder = JSONDecoder()
        return [
            Case(name: "negotiating serializer (JSON, XML, plist), URLSession path, 1.2 KB user, 24 fields", baselineName: "JSONDecoder.decode", target: 1.03) {
                let user = Payloads.userJSON
                let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(GitHubUser.self), decoders: [.json(decoder), .xml(), .propertyList()])
                let (response, request) = try Payloads.githubURLResponse(path: "/users/octocat")
                return Sides(
                    sculpt: { consume(try serializer.serialize(user, for: response, request: request, as: GitHubUser.self)) },
                    baseline: { consume(try decoder.decode(GitHubUser.self, from: user)) })
            },
            Case(name: "XML: an RSS feed's 50 items at channel.item, 24 KB", baselineName: "XMLDecoder.decode(Feed)", target: 1.05) {
                let feed = Self.rssFeed(items: 50)
                var routes = URLModelMatcher()
                try routes.add("/feed.xml", [FeedItem].self, at: "channel.item")
                let serializer = ModelResponseSerializer(matcher: routes, decoders: [.json(decoder), .xml()])
                let context = ResponseContext(
                    url: URL(string: "https://news.example.org/feed.xml"), method: .get, status: .ok,
                    headerFields: [.contentType: "application/rss+xml; charset=UTF-8"])
                return Sides(
                    sculpt: { consume(try serializer.serialize(feed, for: context, as: [FeedItem].self)) },
                    baseline: { consume(try XMLDecoder().decode(Feed.self, from: feed).channel.item) })
            },
        ]
    }

    struct FeedItem: Decodable, Sendable {
        let title: String
        let link: String
        let pubDate: String
        let guid: String
        let description: String
    }

    struct Feed: Decodable {
        struct Channel: Decodable { let item: [FeedItem] }
        let channel: Channel
    }

    /// An RSS 2.0 feed of `items` items, about 480 bytes each.
    static func rssFeed(items: Int) -> Data {
        let entries = (0..<items).map { index in
            """
                <item>
                  <title>Release \(index): notes, fixes &amp; the rest</title>
                  <link>https://news.example.org/2026/11/release-\(index)</link>
                  <pubDate>Mon, 23 Nov 2026 09:\(String(format: "%02d", index % 60)):00 +0000</pubDate>
                  <guid isPermaLink="false">https://news.example.org/?p=\(1000 + index)</guid>
                  <description><![CDATA[<p>What changed in release \(index), and why: decoders chosen by content type, and more.</p>]]></description>
                </item>
            """
        }
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0">
              <channel>
                <title>Release notes</title>
                <link>https://news.example.org/</link>
                <description>What changed in each release</description>
            \(entries.joined(separator: "\n"))
              </channel>
            </rss>
            """.utf8)
    }
}
