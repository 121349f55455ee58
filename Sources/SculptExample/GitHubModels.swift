import Sculpt

/// The slice of GitHub's REST API models this example maps, each able to say what it is in a line.
protocol Summarized {
    /// One field worth printing, e.g. `login: octocat`.
    var summary: String { get }
}

struct APIRoot: Decodable, Sendable, Summarized {
    let currentUserURL: String
    var summary: String { "current_user_url: \(currentUserURL)" }

    enum CodingKeys: String, CodingKey { case currentUserURL = "current_user_url" }
}

struct Organization: Decodable, Sendable, Summarized {
    let login: String
    let publicRepos: Int

    var summary: String { "login: \(login), public_repos: \(publicRepos)" }

    enum CodingKeys: String, CodingKey {
        case login
        case publicRepos = "public_repos"
    }
}

struct Repository: Decodable, Sendable, Summarized {
    let fullName: String
    var summary: String { "full_name: \(fullName)" }

    enum CodingKeys: String, CodingKey { case fullName = "full_name" }
}

struct Label: Decodable, Sendable, Summarized {
    let name: String
    let color: String
    var summary: String { "name: \(name) (#\(color))" }
}

struct Issue: Decodable, Sendable, Summarized {
    let number: Int
    let title: String
    var summary: String { "#\(number) \(title)" }
}

/// GitHub's error body: `{"message": "Branch not protected", "documentation_url": "..."}`.
struct GitHubError: Decodable, Sendable, Summarized {
    let message: String
    var summary: String { "message: \(message)" }
}

extension Array: Summarized where Element: Summarized {
    var summary: String {
        "\(count) items, first: \(first?.summary ?? "none")"
    }
}

extension NoContent: Summarized {
    var summary: String { "(no body, as the 204 says)" }
}
