import SculptShared

extension Fixture: CustomStringConvertible {
    /// One short line: method, path and query (secrets redacted), status, and the file it came
    /// from: `GET /users/octocat -> 200 (get-user.json)`. What a parameterized test shows for a
    /// fixture argument.
    public var description: String {
        let source = self.source.map { " (\(PrintableText.value($0, limit: 256)))" } ?? ""
        return SecretPolicy.redactingCredentialShapes(in: "\(FixtureReplay.MissError.line(request, .default)) -> \(response.status.code)\(source)")
    }
}
