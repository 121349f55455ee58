import SculptShared

extension Fixture: CustomStringConvertible {
    /// One short line: method, path and query (secrets redacted), status, and the file it came
    /// from: `GET /users/octocat -> 200 (get-user.json)`. What a parameterized test shows for a
    /// fixture argument.
    public var description: String {
        let source = self.source.map { " (\(ClippedText.value($0, limit: 256)))" } ?? ""
        return ShownText.line("\(FixtureReplay.MissError.line(request, .default)) -> \(response.status.code)\(source)", limit: 1_536, hiding: shownSecrets)
    }

    /// The secret values a text about this fixture hides wherever it shows them (a path that
    /// repeats one): those its response body holds under secret names (in its first 4 MiB), and
    /// its URL's and headers'.
    var shownSecrets: [String] {
        let policy = SecretPolicy.default
        return policy.secretValues(in: data, contentTypes: response.headerFields[values: .contentType], scanning: 4 << 20).values
            + policy.secretValues(in: request.url) + policy.secretValues(in: request.headerFields) + policy.secretValues(in: response.headerFields)
    }
}
