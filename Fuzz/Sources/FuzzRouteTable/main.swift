// Random route tables: every line but the last is a pattern (compiled; invalid ones throw a
// ParseError), the last line is a path matched against the table built from the valid ones.
import Foundation
import FuzzSupport
import SculptMatchers

runFuzzer { input in
    var lines = input.lines
    let path = lines.removeLast()
    var matcher = URLModelMatcher()
    for line in lines.prefix(16) {
        let pattern: URLPattern
        do throws(URLPattern.ParseError) {
            pattern = try URLPattern(line)
        } catch {
            require(error.pattern == line, "the ParseError names \"\(error.pattern)\", not \"\(line)\"")
            continue
        }
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
