import SculptShared

extension Fixture: CustomStringConvertible {
    /// One short line: method, path and query (secrets redacted), status, and the file it came
    /// from: `GET /users/octocat -> 200 (get-user.json)`. What a parameterized test shows for a
    /// fixture argument.
    public var description: String {
        let source = self.source.map { " (\(ClippedText.value($0, limit: 256)))" } ?? ""
        return ShownText.line("\(FixtureReplay.MissError.line(request, .default)) -> \(response.status.code)\(source)", limit: 1_536)
    }
}
