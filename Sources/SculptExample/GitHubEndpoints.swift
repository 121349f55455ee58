import SculptMatchers

/// The GitHub endpoints this example maps: each a path pattern with named parameters and the model
/// type its responses decode as. Registered in a `URLModelMatcher`, they route responses; called
/// with their parameters, they build the requests.
enum GitHub {
    static let root = Endpoint<APIRoot>("/")
    static let organization = Endpoint<Organization>("/orgs/{org}")
    static let repository = Endpoint<Repository>("/repos/{owner}/{repo}")
    static let repositoryByID = Endpoint<Repository>("/repositories/{id:#}")
    static let labels = Endpoint<[Label]>("/repos/{owner}/{repo}/labels")
    static let label = Endpoint<Label>("/repos/{owner}/{repo}/labels/{name}")
    static let issues = Endpoint<[Issue]>("/repos/{owner}/{repo}/issues")
    static let issuesByRepositoryID = Endpoint<[Issue]>("/repositories/{id:#}/issues")
}
