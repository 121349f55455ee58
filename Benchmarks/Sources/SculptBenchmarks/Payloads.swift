import Foundation

/// The payloads, built deterministically so every run decodes the same bytes.
enum Payloads {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func user(_ id: Int) -> GitHubUser {
        let login = "user\(id)"
        let base = "https://api.github.com/users/\(login)"
        return GitHubUser(
            login: login, id: id, nodeID: "MDQ6VXNlcj\(id)", avatarURL: "https://avatars.githubusercontent.com/u/\(id)?v=4", gravatarID: "",
            url: base, htmlURL: "https://github.com/\(login)", followersURL: "\(base)/followers", followingURL: "\(base)/following{/other_user}",
            gistsURL: "\(base)/gists{/gist_id}", starredURL: "\(base)/starred{/owner}{/repo}", subscriptionsURL: "\(base)/subscriptions",
            organizationsURL: "\(base)/orgs", reposURL: "\(base)/repos", eventsURL: "\(base)/events{/privacy}",
            receivedEventsURL: "\(base)/received_events", type: "User", siteAdmin: false, name: "Monalisa Octocat \(id)", company: "GitHub",
            blog: "https://github.blog", location: "San Francisco", email: nil, hireable: nil, bio: "There once was a user numbered \(id).",
            twitterUsername: nil, publicRepos: 8, publicGists: 8, followers: 20_000 + id, following: 9,
            createdAt: "2011-01-25T18:44:36Z", updatedAt: "2024-05-01T12:00:00Z")
    }

    static func simpleUser(_ id: Int) -> SimpleUser {
        SimpleUser(login: "user\(id)", id: id, avatarURL: "https://avatars.githubusercontent.com/u/\(id)?v=4", url: "https://api.github.com/users/user\(id)", type: "User", siteAdmin: false)
    }

    static func issue(_ number: Int) -> Issue {
        Issue(
            id: 1_000_000 + number, number: number, title: "Crash when decoding response number \(number) with nested labels",
            state: number.isMultiple(of: 3) ? "closed" : "open",
            body: String(repeating: "Steps to reproduce: fetch, decode, observe the crash in frame \(number). ", count: 19),
            user: simpleUser(number), labels: (0..<3).map { IssueLabel(id: $0, name: ["bug", "enhancement", "help wanted"][$0], color: "d73a4a", description: "Something", default: $0 == 0) },
            assignees: [simpleUser(number + 1)], comments: number % 7, createdAt: "2024-01-01T00:00:00Z", updatedAt: "2024-02-01T00:00:00Z",
            closedAt: number.isMultiple(of: 3) ? "2024-03-01T00:00:00Z" : nil, url: "https://api.github.com/repos/apple/swift/issues/\(number)")
    }

    /// A 1.2 KB GitHub user.
    static let userJSON = encode(user(1))
    /// The same user with its members in key order, not the model's, as `JSONSerialization`
    /// and many servers write them.
    static let userSortedJSON: Data = {
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        return (try? sorted.encode(user(1))) ?? Data()
    }()
    /// The same user as `JSONSerialization` writes it: its own member order, its own `Data`.
    static let userSerializedJSON: Data = {
        guard let object = try? JSONSerialization.jsonObject(with: userJSON) else { return Data() }
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }()
    /// 100 GitHub issues, about 220 KB.
    static let issuesJSON = encode((1...100).map(issue))
    /// The same issues, every tenth with a `number` that is a string: 10 elements a lossy array
    /// leaves out.
    static let issuesWithLossesJSON: Data = {
        guard var issues = (try? JSONSerialization.jsonObject(with: issuesJSON)) as? [[String: Any]] else { return Data() }
        for index in stride(from: 0, to: issues.count, by: 10) { issues[index]["number"] = "#\(index)" }
        return (try? JSONSerialization.data(withJSONObject: issues)) ?? Data()
    }()
    /// An array of at least 5 MB.
    static let largeArrayJSON: Data = {
        let item = { (id: Int) in
            Item(id: id, name: "item \(id)", score: Double(id) * 0.25, active: id.isMultiple(of: 2), tags: ["a", "b", "c\(id % 10)"], owner: simpleUser(id))
        }
        var count = 10_000
        var data = Data()
        repeat {
            data = encode((0..<count).map(item))
            count += count / 20
        } while data.count < 5_000_000
        return data
    }()
    /// `{"status","meta","data":{"items":[100 issues]}}`.
    static let envelopeJSON = Data(#"{"status":"ok","meta":{"page":1,"per_page":100,"total":1000},"data":{"items":"#.utf8) + issuesJSON + Data("}}".utf8)
    /// A Stack Exchange wrapper of 100 questions, its `type` after the items.
    static let wrapperJSON: Data = {
        let questions = (0..<100).map { Question(questionID: 10_000 + $0, title: "How do I decode JSON number \($0) in Swift?", tags: ["swift", "json", "codable"], score: $0 % 17, isAnswered: $0.isMultiple(of: 2), link: "https://stackoverflow.com/q/\(10_000 + $0)") }
        let items = encode(questions)
        return Data(#"{"items":"#.utf8) + items + Data(#","has_more":true,"quota_max":300,"quota_remaining":-12,"type":"question"}"#.utf8)
    }()
    /// 100 issues keyed by their node ids, as APIs that return maps send them (about 220 KB).
    static let issuesByIDJSON = encode(Dictionary(uniqueKeysWithValues: (1...100).map { ("I_kwDOAbc\($0 * 7919)", issue($0)) }))
    /// 10,000 counts keyed by name (`{"repository-0": 17, ...}`, about 230 KB).
    static let countsJSON = encode(Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("repository-\($0)", $0 % 997) }))
    /// 10,000 records with keys past ASCII (`{"straße":…,"größe":…,"café":…}`, about 600 KB).
    static let nonASCIIKeysJSON = encode((0..<10_000).map { Ort(straße: "Hauptstraße \($0)", größe: $0, café: $0.isMultiple(of: 2)) })
    /// `["lorem ipsum…"]`, one 1 MB string of ASCII prose without escapes, as a long text or a
    /// base64 blob arrives.
    static let longStringJSON = encode([String(repeating: "lorem ipsum dolor sit amet, ", count: 1_000_000 / 28)])
    /// An object whose discriminator comes last, after a 200 KB string.
    static let discriminatorLastJSON = discriminatorLast(after: "lorem ipsum \"dolor\" sit amet, ")
    /// The same after 200 KB of one letter, as a padded or base64-like value arrives.
    static let discriminatorAfterLetterJSON = discriminatorLast(after: "a")
    /// The same after 200 KB of text beyond ASCII (accents and CJK, no escapes).
    static let discriminatorAfterNonASCIIJSON = discriminatorLast(after: "café 東京 naïve ")

    /// An object whose discriminator comes last, after a string of `piece` repeated to about 200 KB.
    static func discriminatorLast(after piece: String) -> Data {
        encode(Blob(id: 1, body: String(repeating: piece, count: 200_000 / piece.utf8.count), type: "blob"))
    }

    /// Stripe's invoice sample (5.2 KB), as recorded in the repository's corpus.
    static let stripeInvoiceJSON: Data = {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? Data(contentsOf: root.appending(path: "Tests/Fixtures/corpus/stripe/invoice.json"))) ?? Data()
    }()

    static func encode(_ value: some Encodable) -> Data {
        (try? encoder.encode(value)) ?? Data()
    }
}
