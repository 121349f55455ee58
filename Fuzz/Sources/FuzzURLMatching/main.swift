// URL matching: random URLs against a fixed table shaped like GitHub's (literals, `#`, `*`, `**`,
// shared prefixes, a `/v3` path prefix, and the same prefix spelled with dot segments).
import Foundation
import FuzzSupport
import SculptMatchers

let patterns = [
    "/", "/users", "/users/*", "/users/*/repos", "/users/*/**", "/orgs/*/repos", "/orgs/*/members/*",
    "/repos/*/*", "/repos/*/*/issues", "/repos/*/*/issues/#", "/repos/*/*/issues/#/comments",
    "/repos/*/*/issues/comments/#", "/repos/*/*/pulls/#/files", "/repos/*/*/contents/**",
    "/repos/*/*/git/refs/**", "/repos/*/*/git/refs/heads/*", "/search/**", "/search/code",
    "/gists/*/*", "/gists/starred", "/*/*/*/#", "/*/*/*/*/raw", "/a/*/b/*/c/**", "/#/#/#", "/*/#/*/#/*/#/*/#",
]
/// The fixed table under a path prefix.
func table(prefix: String) -> URLModelMatcher {
    var matcher = URLModelMatcher(pathPrefix: prefix)
    for (index, pattern) in patterns.enumerated() {
        do {
            try matcher.add(pattern, Marker.self, at: "route\(index)")
        } catch {
            require(false, "the fixed table does not compile: \(error)")
        }
    }
    return matcher
}
let oracle = RoutingOracle(table(prefix: "/v3"), prefix: "/v3")
let plain = table(prefix: "/v3")
/// The same prefix spelled with dot segments, which are resolved as in a path.
let dotted = table(prefix: "/./x/%2E%2E/v3/.")

/// Where the input's path goes: as the whole URL, after the host, or after the host and prefix.
let bases = ["", "https://api.example.com", "https://api.example.com/v3/"]

runFuzzer { input in
    // The first byte picks one base, so each execution parses and matches one URL.
    guard let first = input.first else { return }
    let text = String(decoding: input.dropFirst(), as: UTF8.self)
    guard let url = URL(string: bases[Int(first) % bases.count] + text) else { return }
    oracle.check(url)
    require(dotted.route(for: url)?.description == plain.route(for: url)?.description, "the prefix /./x/%2E%2E/v3/. and /v3 route \(url) differently")
}
