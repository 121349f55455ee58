public import Foundation
import SculptShared

extension Cassette {
    /// Loads a cassette (or single fixture) shipped as a bundle resource, such as a test target's
    /// `Bundle.module`.
    ///
    /// ```swift
    /// let cassette = try Cassette(named: "paginate-issues", in: .module, subdirectory: "Fixtures/cassettes")
    /// ```
    /// - Parameters:
    ///   - name: the resource's name, without its `.json` extension.
    ///   - bundle: the bundle holding it.
    ///   - subdirectory: the resource's folder inside the bundle; `nil` for its root.
    /// - Throws: ``Fixture/FormatError`` when the bundle has no such `.json` resource or it is not
    ///   a cassette, and when `name` or `subdirectory` would leave the bundle's resource folder
    ///   (an absolute path, a `..` segment, a symbolic link that leads out).
    public init(named name: String, in bundle: Bundle, subdirectory: String? = nil) throws {
        try self.init(contentsOf: try BundleResource.file(named: name, extension: "json", in: bundle, subdirectory: subdirectory))
    }
}
