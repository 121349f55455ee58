import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers

extension Cases {
    /// Descriptions against descriptions: a `SculptError` for a hostile body costs what one for a
    /// body of the most a description reads (4 MiB scanned for secret values) costs, however large
    /// the body.
    static func descriptions() throws -> [Case] {
        var types = TypeFieldModelMatcher(field: "type")
        try types.add("user", GitHubUser.self)
        let serializer = ModelResponseSerializer(matcher: types)
        let context = ResponseContext(
            url: URL(string: "https://api.example.com/users/1?access_token=x"), method: .get, status: .ok,
            headerFields: [.contentType: "application/json"])
        /// The error for an unknown discriminator `bytes` long.
        func error(tag bytes: Int) -> SculptError? {
            var body = Data(#"{"token":"abc123","type":""#.utf8)
            body.append(Data(repeating: UInt8(ascii: "t"), count: bytes))
            body.append(Data(#""}"#.utf8))
            do {
                _ = try serializer.serialize(body, for: context)
                return nil
            } catch {
                return error  // typed: serialize throws SculptError only
            }
        }
        return [
            Case(name: "describe: unknown 100 MB discriminator", baselineName: "describe: unknown 4 MiB discriminator", target: 1.5) {
                guard let huge = error(tag: 100 << 20), let bounded = error(tag: 4 << 20) else { throw CocoaError(.featureUnsupported) }
                return Sides(sculpt: { consume(huge.description) }, baseline: { consume(bounded.description) })
            }
        ]
    }
}
