import SculptShared
/// A model that describes a failed request. When a matcher resolves a response to one, the
/// serializer throws ``SculptError/Reason/errorResponse(model:)`` with it, whatever the status: the
/// way to catch a `200` whose body says it failed.
///
/// ```swift
/// struct APIFailure: ErrorResponseModel { let status: String; let message: String }
///
/// var failed = TypeFieldModelMatcher(field: "status", ["error": APIFailure.self])
/// failed.unknownValuesMatchNothing = true
/// let serializer = ModelResponseSerializer(matcher: FirstMatchModelMatcher([failed, routes]))
/// // {"status":"error","message":"quota exceeded"} with 200 now throws .errorResponse(APIFailure)
/// ```
public protocol ErrorResponseModel: Decodable, Sendable {}
