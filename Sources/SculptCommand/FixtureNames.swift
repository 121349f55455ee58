import Foundation
import HTTPTypes
import SculptShared
import SculptTesting

/// File names for fixtures, made from each request's method and path: `GET /users/octocat`
/// becomes `get-users-octocat.json`; a name already taken gets `-2`, `-3`, ...
enum FixtureNames {
    /// One name per fixture, in order, no two alike.
    static func unique(for fixtures: [Fixture]) -> [String] {
        var taken: Set<String> = []
        return fixtures.map { fixture in
            let base = name(for: fixture)
            var candidate = base
            var count = 1
            while !taken.insert(candidate).inserted {
                count += 1
                candidate = "\(base)-\(count)"
            }
            return candidate + ".json"
        }
    }

    /// `get-users-octocat`: the method and the path's segments, lowercased, anything but letters
    /// and digits made `-`, cut to 80 characters; `get-root` for `/`. The path is decoded until
    /// no escape is left, then read as every text is shown, so a credential in it, however
    /// encoded, names no file (`get-users-redacted-repos`).
    static func name(for fixture: Fixture) -> String {
        // Each escape decoded, those that do not read left as they are, until none is left.
        var decoded = fixture.request.url.path(percentEncoded: true)
        while true {
            let once = PercentEncoding.decoded(decoded.utf8)
            guard once != decoded else { break }
            decoded = once
        }
        // The request's own secret values (its query's, its password, its headers', its body's)
        // name no file either.
        let policy = SecretPolicy.default
        let request = fixture.request
        let hidden = policy.secretValues(in: request.url) + policy.secretValues(in: request.headerFields)
            + (request.body.map { policy.secretValues(in: $0, contentTypes: request.headerFields[values: .contentType], scanning: 4 << 20).values } ?? [])
        let path = ShownText.line(policy.shown(urlText: decoded), limit: 4_096, hiding: hidden)
        var words: [String] = [fixture.request.method.rawValue.lowercased()]
        var word = ""
        for scalar in path.unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar), scalar.isASCII {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word.lowercased())
                word = ""
            }
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        if words.count == 1 { words.append("root") }
        return String(words.joined(separator: "-").prefix(80))
    }
}
