import Foundation

/// GitHub's user, all of it: what a real client decodes.
struct GitHubUser: Codable, Sendable {
    let login: String
    let id: Int
    let nodeID: String
    let avatarURL: String
    let gravatarID: String
    let url: String
    let htmlURL: String
    let followersURL: String
    let followingURL: String
    let gistsURL: String
    let starredURL: String
    let subscriptionsURL: String
    let organizationsURL: String
    let reposURL: String
    let eventsURL: String
    let receivedEventsURL: String
    let type: String
    let siteAdmin: Bool
    let name: String?
    let company: String?
    let blog: String?
    let location: String?
    let email: String?
    let hireable: Bool?
    let bio: String?
    let twitterUsername: String?
    let publicRepos: Int
    let publicGists: Int
    let followers: Int
    let following: Int
    let createdAt: String
    let updatedAt: String

    enum CodingKeys: String, CodingKey {
        case login, id, url, type, name, company, blog, location, email, hireable, bio, followers, following
        case nodeID = "node_id", avatarURL = "avatar_url", gravatarID = "gravatar_id", htmlURL = "html_url"
        case followersURL = "followers_url", followingURL = "following_url", gistsURL = "gists_url", starredURL = "starred_url"
        case subscriptionsURL = "subscriptions_url", organizationsURL = "organizations_url", reposURL = "repos_url"
        case eventsURL = "events_url", receivedEventsURL = "received_events_url", siteAdmin = "site_admin"
        case twitterUsername = "twitter_username", publicRepos = "public_repos", publicGists = "public_gists"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// The user summary GitHub nests in issues.
struct SimpleUser: Codable, Sendable {
    let login: String
    let id: Int
    let avatarURL: String
    let url: String
    let type: String
    let siteAdmin: Bool

    enum CodingKeys: String, CodingKey {
        case login, id, url, type
        case avatarURL = "avatar_url", siteAdmin = "site_admin"
    }
}

struct IssueLabel: Codable, Sendable {
    let id: Int
    let name: String
    let color: String
    let description: String?
    let `default`: Bool
}

struct Issue: Codable, Sendable {
    let id: Int
    let number: Int
    let title: String
    let state: String
    let body: String?
    let user: SimpleUser
    let labels: [IssueLabel]
    let assignees: [SimpleUser]
    let comments: Int
    let createdAt: String
    let updatedAt: String
    let closedAt: String?
    let url: String

    enum CodingKeys: String, CodingKey {
        case id, number, title, state, body, user, labels, assignees, comments, url
        case createdAt = "created_at", updatedAt = "updated_at", closedAt = "closed_at"
    }
}

/// The elements of the 5 MB array.
struct Item: Codable, Sendable {
    let id: Int
    let name: String
    let score: Double
    let active: Bool
    let tags: [String]
    let owner: SimpleUser
}

/// `{"body": <200 KB>, ..., "type": "blob"}`: the discriminator after a long string.
struct Blob: Codable, Sendable {
    let id: Int
    let body: String
    let type: String
}

/// A hand-written envelope: the baseline for decoding at `data.items`.
struct IssueEnvelope: Decodable, Sendable {
    struct Payload: Decodable, Sendable { let items: [Issue] }
    let data: Payload
}

/// Stack Exchange's wrapper, hand-written: the baseline for a wrapper-level tag.
struct QuestionWrapper: Decodable, Sendable {
    let items: [Question]
}

struct Question: Codable, Sendable {
    let questionID: Int
    let title: String
    let tags: [String]
    let score: Int
    let isAnswered: Bool
    let link: String

    enum CodingKeys: String, CodingKey {
        case title, tags, score, link
        case questionID = "question_id", isAnswered = "is_answered"
    }
}

/// A record whose keys are not ASCII, as some localized APIs send them: decoders look these up
/// through a dictionary per object.
struct Ort: Codable, Sendable {
    let straße: String
    let größe: Int
    let café: Bool
}

/// What an app keeps of a GitHub user: 19 of its 33 members, 6 of them optional, declared in an
/// order of their own, as apps write models.
struct UserSummary: Decodable, Sendable {
    let login: String
    let name: String?
    let id: Int
    let avatarURL: String
    let htmlURL: String
    let bio: String?
    let company: String?
    let location: String?
    let blog: String?
    let email: String?
    let followers: Int
    let following: Int
    let publicRepos: Int
    let publicGists: Int
    let type: String
    let siteAdmin: Bool
    let nodeID: String
    let createdAt: String
    let updatedAt: String

    enum CodingKeys: String, CodingKey {
        case login, name, id, bio, company, location, blog, email, followers, following, type
        case avatarURL = "avatar_url", htmlURL = "html_url", publicRepos = "public_repos", publicGists = "public_gists"
        case siteAdmin = "site_admin", nodeID = "node_id", createdAt = "created_at", updatedAt = "updated_at"
    }
}
