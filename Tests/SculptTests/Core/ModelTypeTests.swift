import Foundation
import Sculpt
import Testing

@Suite("ModelType")
struct ModelTypeTests {
    @Test("equal when type and key path are")
    func equality() {
        #expect(ModelType(User.self) == ModelType(User.self))
        #expect(ModelType(User.self, at: "data") == ModelType(User.self, at: "data"))
        #expect(ModelType(User.self) != ModelType(User.self, at: "data"))
        #expect(ModelType(User.self) != ModelType([User].self))
        #expect(ModelType(User.self) != ModelType(User?.self))
        #expect(Set([ModelType(User.self), ModelType(User.self), ModelType(Label.self)]).count == 2)
    }

    @Test("describes itself by type name and key path", arguments: [
        (ModelType(User.self), "User"),
        (ModelType([Label].self, at: "data.items"), "Array<Label> at data.items"),
        (ModelType(User?.self), "Optional<User>"),
    ])
    func description(_ modelType: ModelType, _ text: String) {
        #expect(modelType.description == text)
    }

    @Test("keeps the type and key path")
    func properties() {
        let modelType = ModelType([Label].self, at: "items")
        #expect(modelType.type is [Label].Type)
        #expect(modelType.keyPath == "items")
    }

    @Test("validated() reports a bad key path")
    func validated() throws {
        #expect(try ModelType(User.self, at: "a.b").validated() == ModelType(User.self, at: "a.b"))
        #expect(throws: ModelKeyPath.SyntaxError.self) { try ModelType(User.self, at: "a[").validated() }
    }
}
