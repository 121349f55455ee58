// URL matching: random URLs against a fixed table shaped like GitHub's (literals, `#`, `*`, `**`,
// shared prefixes, a `/v3` path prefix).
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
let oracle: RoutingOracle = {
    var matcher = URLModelMatcher(pathPrefix: "/v3")
    for (index, pattern) in patterns.enumerated() {
        do {
            try matcher.add(pattern, Marker.self, at: "route\(index)")
        } catch {
            require(false, "the fixed table does not compile: \(error)")
        }
    }
    return RoutingOracle(matcher, prefix: "/v3")
}()

runFuzzer { input in
    let text = String(decoding: input, as: UTF8.self)
    for url in [URL(string: text), URL(string: "https://api.example.com" + text), URL(string: "https://api.example.com/v3/" + text)] {
        guard let url else { continue }
        oracle.check(url)
    }
}
