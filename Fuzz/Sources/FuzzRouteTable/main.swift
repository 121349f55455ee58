// Random route tables: every line but the last is a pattern (compiled; invalid ones throw a
// SyntaxError; one over the segment limit says so), the last line is a path matched against the
// table built from the valid ones.
import Foundation
import FuzzSupport
import SculptMatchers

runFuzzer { input in
    var lines = input.lines
    let path = lines.removeLast()
    var matcher = URLModelMatcher()
    for line in lines.prefix(16) {
        let pattern: URLPattern
        do throws(URLPattern.SyntaxError) {
            pattern = try URLPattern(line)
        } catch {
            require(error.pattern == line, "the SyntaxError names \"\(error.pattern)\", not \"\(line)\"")
            let count = line.utf8.split(separator: UInt8(ascii: "/")).count
            if count > URLPattern.maximumSegmentCount {
                let reason = "a pattern may have at most \(URLPattern.maximumSegmentCount) segments; this one has \(count)"
                require(error.reason == reason, "\(count) segments refused with \"\(error.reason)\"")
            }
            continue
        }
        require(pattern.tokens.count <= URLPattern.maximumSegmentCount, "\"\(line)\" compiled to \(pattern.tokens.count) segments, over the limit")
        require((try? URLPattern(pattern.description)) == pattern, "\"\(line)\" compiles to \(pattern), whose description compiles differently")
        do {
            try matcher.add(line, Marker.self)
        } catch {
            require(false, "\"\(line)\" compiled but cannot be added: \(error)")
        }
    }
    if let url = URL(string: "https://api.example.com" + path) {
        RoutingOracle(matcher, prefix: nil).check(url)
    }
}
