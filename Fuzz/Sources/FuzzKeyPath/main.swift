// Key paths: the first line is a key path, the rest a body. Parsing never crashes; a valid path
// decodes exactly the value JSONDecoder finds at it, or throws keyPathNotFound when there is none.
import Foundation
import FuzzSupport
import Sculpt
import SculptMatchers

let context = ResponseContext(url: URL(string: "https://api.example.com/items"), status: .ok)

runFuzzer { input in
    let (path, body) = input.headAndRest
    let keyPath: ModelKeyPath
    do throws(ModelKeyPath.SyntaxError) {
        keyPath = try ModelKeyPath(path)
    } catch {
        require(error.offset >= 0 && error.offset <= path.utf8.count, "syntax error offset \(error.offset) outside the path")
        return
    }
    let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(AnyJSON.self, at: path))
    let result = Result { try serializer.serialize(body, for: context, as: AnyJSON.self) }
    guard let reference = try? JSONDecoder().decode(AnyJSON.self, from: body) else { return }
    let steps = keyPath.components.map { component -> (key: String?, index: Int?) in
        switch component {
        case .key(let key): (key: key, index: nil)
        case .index(let index): (key: nil, index: index)
        }
    }
    switch (result, reference.value(at: steps)) {
    case (.success(let value), let expected?):
        require(value == expected, "at \(path): Sculpt decoded \(value), JSONDecoder has \(expected)")
    case (.failure(let error as SculptError), nil) where error.reason.name == "keyPathNotFound":
        break
    case (let result, let expected):
        require(false, "at \(path): Sculpt \(result), JSONDecoder \(expected.map { "\($0)" } ?? "nothing")")
    }
}
