public import Foundation
public import HTTPTypes

/// The serializer that asks a ``ModelMatcher`` which model type a response holds, then decodes it.
///
/// ```swift
/// var routes = URLModelMatcher(pathPrefix: "/v3")
/// try routes.add("/users/*", User.self)
/// let serializer = ModelResponseSerializer(matcher: routes)
/// let user = try await URLSession.shared.model(from: url, serializer: serializer) as? User
/// ```
///
/// For each response, in this order:
/// 1. A status outside ``acceptableStatusCodes`` throws: ``SculptError/errorResponse(model:_:)``
///    with the decoded error model when ``errorMatcher`` resolves one and the body decodes as it,
///    else ``SculptError/unacceptableStatusCode(underlying:_:)``.
/// 2. A body over ``maximumBodySize`` or nesting deeper than ``maximumNestingDepth`` throws
///    ``SculptError/bodyTooLarge(maximum:_:)`` or ``SculptError/nestingTooDeep(maximum:offset:_:)``
///    before any matcher reads it (limits are off by default).
/// 3. An empty (or all white space) body is allowed for 204, 205 and `HEAD`: it yields the matched
///    type's ``EmptyBodyRepresentable/emptyBodyValue`` (`nil` for an optional), else ``NoContent``.
///    Any other empty body throws ``SculptError/emptyBody(expected:_:)``.
/// 4. A `Content-Type` outside ``acceptableContentTypes`` throws
///    ``SculptError/unacceptableContentType(acceptable:_:)``; a response without one is accepted.
/// 5. The matcher picks the model type; `nil` throws ``SculptError/noModelMatched(candidates:_:)``.
/// 6. The body is decoded at the model type's key path; failures throw
///    ``SculptError/decodingFailed(_:underlying:_:)`` or ``SculptError/keyPathNotFound(_:_:)``.
public struct ModelResponseSerializer<Matcher: ModelMatcher>: ResponseSerializer {
    /// Any model: cast it, or use ``serialize(_:for:as:)`` to get a typed one.
    public typealias Output = any Decodable & Sendable

    /// The content types accepted by default: JSON under its registered and legacy names, and any
    /// `+json` structured suffix (`application/vnd.github+json`, `application/problem+json`).
    public static var defaultContentTypes: Set<String> {
        ["application/json", "text/json", "text/javascript", "*/*+json"]
    }

    /// Picks the model type of a successful response.
    public var matcher: Matcher

    /// Turns bodies into models.
    public var decoder: any ModelDecoder

    /// Picks the model type of an error response's body (a status outside
    /// ``acceptableStatusCodes``); `nil` keeps error bodies undecoded, though still attached.
    public var errorMatcher: (any ModelMatcher)?

    /// The statuses whose bodies are models; others are errors. Default: 200...299.
    public var acceptableStatusCodes: Set<Int> = Self.successStatusCodes {
        didSet { statusCodeFilter = StatusCodeFilter(acceptableStatusCodes) }
    }

    /// The media ranges a `Content-Type` must fall in: exact types (`application/json`), a whole
    /// type (`text/*`), or a structured suffix (`*/*+json`). Compared case-insensitively with
    /// parameters ignored. `nil` accepts any content type. Default: ``defaultContentTypes``.
    public var acceptableContentTypes: Set<String>? = Self.defaultContentTypes {
        didSet { contentTypeFilter = acceptableContentTypes.map(ContentTypeFilter.init) }
    }

    /// The largest body, in bytes, the serializer reads (error bodies included); a larger one throws
    /// ``SculptError/bodyTooLarge(maximum:_:)`` before any matcher or decoder reads it. `nil`, the
    /// default, reads any size.
    ///
    /// ```swift
    /// serializer.maximumBodySize = 8 << 20  // 8 MiB
    /// ```
    public var maximumBodySize: Int?

    /// The deepest nesting of arrays and objects the serializer decodes; a deeper body throws
    /// ``SculptError/nestingTooDeep(maximum:offset:_:)`` (one pass over the bytes, before any
    /// matcher reads it). `nil`, the default, leaves nesting to the decoder (`JSONDecoder` itself
    /// refuses more than 512 levels).
    ///
    /// ```swift
    /// serializer.maximumNestingDepth = 64
    /// ```
    public var maximumNestingDepth: Int?

    /// ``acceptableStatusCodes``, made ready once for every response.
    @usableFromInline var statusCodeFilter = StatusCodeFilter(Self.successStatusCodes)

    /// The default ``acceptableStatusCodes``: 200...299.
    static var successStatusCodes: Set<Int> { Set(200...299) }

    /// ``acceptableContentTypes``, parsed once for every response; `nil` accepts any.
    @usableFromInline var contentTypeFilter: ContentTypeFilter? = ContentTypeFilter(Self.defaultContentTypes)

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = ModelResponseSerializer(
    ///     matcher: routes,
    ///     decoder: JSONDecoder(),
    ///     errorMatcher: StaticModelMatcher(APIError.self))
    /// ```
    public init(matcher: Matcher, decoder: any ModelDecoder = JSONDecoder(), errorMatcher: (any ModelMatcher)? = nil) {
        self.matcher = matcher
        self.decoder = decoder
        self.errorMatcher = errorMatcher
    }

    /// Serializes a response into the model its matcher picks.
    ///
    /// ```swift
    /// let model = try serializer.serialize(data, for: ResponseContext(url: url))
    /// if let user = model as? User { print(user.login) }
    /// ```
    /// - Throws: ``SculptError``, at the first step of the pipeline that fails (see the type's
    ///   documentation).
    @inlinable
    public func serialize(_ data: Data, for response: ResponseContext) throws -> Output {
        let context = SculptError.Context(response: response, body: data)
        guard let modelType = try resolvedType(context, expecting: nil) else {
            return try bodilessValue(context)
        }
        try checkIsModel(modelType, expected: nil, context)
        return try decoding(modelType, context) { try modelType.decode(data, using: decoder) }
    }

    /// Serializes a response into a model of type `M`, checking that the matcher agrees.
    ///
    /// ```swift
    /// let user = try serializer.serialize(data, for: context, as: User.self)
    /// ```
    ///
    /// The matcher still picks the model type (and with it the key path): asking for `User` where
    /// it resolved `[User]` is a ``SculptError/typeMismatch(expected:matched:_:)``, not a guess. A
    /// bodiless 204, 205 or `HEAD` response yields `M`'s empty value when `M` is
    /// ``EmptyBodyRepresentable`` (`NoContent`, any `Optional`).
    /// - Throws: ``SculptError``, at the first step of the pipeline that fails.
    @inlinable
    public func serialize<M: Decodable & Sendable>(_ data: Data, for response: ResponseContext, as type: M.Type) throws -> M {
        let context = SculptError.Context(response: response, body: data)
        guard let modelType = try resolvedType(context, expecting: M.self) else {
            return try bodilessValue(context, as: M.self)
        }
        try checkIsModel(modelType, expected: M.self, context)
        return try decoding(modelType, context) { try modelType.decode(M.self, from: data, using: decoder) }
    }

    // MARK: - Steps

    /// Steps 1 to 4: the model type to decode, or `nil` for a response that may be and is bodiless.
    /// `expected` is the model the caller wants, named in the message of an unexpected empty body.
    @inlinable
    func resolvedType(_ context: SculptError.Context, expecting expected: Any.Type?) throws -> ModelType? {
        try checkStatus(context)
        try checkLimits(context)
        if context.body.isBlank {
            guard Self.allowsEmptyBody(context.response) else {
                let named = expected.map { String(describing: $0) } ?? (try? matchedType(context, by: matcher)).flatMap { $0?.description }
                throw SculptError.emptyBody(expected: named, context)
            }
            return nil
        }
        try checkContentType(context)
        guard let modelType = try matchedType(context, by: matcher) else {
            throw SculptError.noModelMatched(candidates: matcher.nearestCandidates(for: context.response), context)
        }
        return modelType
    }

    /// What a bodiless 204, 205 or `HEAD` response yields: the matched type's empty value, else
    /// ``NoContent``.
    @inlinable
    func bodilessValue(_ context: SculptError.Context) throws -> Output {
        try matchedType(context, by: matcher)?.emptyValue ?? NoContent()
    }

    /// What a bodiless response yields as `M`: its empty value, when it has one.
    @inlinable
    func bodilessValue<M>(_ context: SculptError.Context, as type: M.Type) throws -> M {
        guard let value = ModelType.emptyBodyValue(of: M.self) else {
            throw SculptError.emptyBody(expected: String(describing: M.self), context)
        }
        return value
    }

    /// Throws when the matched type is not a model to return: an ``ErrorResponseModel`` (decoded
    /// and thrown as ``SculptError/errorResponse(model:_:)``), or not the `expected` type.
    @inlinable
    func checkIsModel(_ modelType: ModelType, expected: (any (Decodable & Sendable).Type)?, _ context: SculptError.Context) throws {
        if modelType.isErrorResponse {
            let model = try decoding(modelType, context) { try modelType.decode(context.body, using: decoder) }
            throw SculptError.errorResponse(model: model, context)
        }
        if let expected, modelType.type != expected {
            throw SculptError.typeMismatch(expected: expected, matched: modelType, context)
        }
    }

    @inlinable
    func checkStatus(_ context: SculptError.Context) throws {
        guard !statusCodeFilter.accepts(context.response.status.code) else { return }
        let model: (any Decodable & Sendable)?
        do {
            model = try errorModel(context)
        } catch {
            throw SculptError.unacceptableStatusCode(underlying: error, context)
        }
        guard let model else { throw SculptError.unacceptableStatusCode(underlying: nil, context) }
        throw SculptError.errorResponse(model: model, context)
    }

    /// Throws when the body is over ``maximumBodySize`` or nests deeper than ``maximumNestingDepth``.
    @inlinable
    func checkLimits(_ context: SculptError.Context) throws {
        if let maximumBodySize, context.body.count > maximumBodySize {
            throw SculptError.bodyTooLarge(maximum: maximumBodySize, context)
        }
        if let maximumNestingDepth, let offset = NestingDepth.firstOffset(exceeding: maximumNestingDepth, in: context.body) {
            throw SculptError.nestingTooDeep(maximum: maximumNestingDepth, offset: offset, context)
        }
    }

    /// The error body decoded as the model ``errorMatcher`` picks; `nil` when there is no error
    /// matcher, no body, a content type that is not acceptable, or no model type for it. A body
    /// over the limits throws (and is reported as the reason the error model is missing).
    @inlinable
    func errorModel(_ context: SculptError.Context) throws -> (any Decodable & Sendable)? {
        guard let errorMatcher, !context.body.isBlank, acceptsContentType(of: context.response) else { return nil }
        try checkLimits(context)
        guard let errorType = try matchedType(context, by: errorMatcher) else { return nil }
        return try decoding(errorType, context) { try errorType.decode(context.body, using: decoder) }
    }

    @inlinable
    func checkContentType(_ context: SculptError.Context) throws {
        guard !acceptsContentType(of: context.response) else { return }
        throw SculptError.unacceptableContentType(acceptable: (acceptableContentTypes ?? []).sorted(), context)
    }

    @inlinable
    func acceptsContentType(of response: ResponseContext) -> Bool {
        // The first Content-Type field, found without `HTTPFields`' subscript, which joins repeated
        // values into a new string on every call.
        guard let contentTypeFilter, let contentType = response.headerFields.first(where: { $0.name == .contentType })?.value else {
            return true
        }
        return contentTypeFilter.accepts(contentType)
    }

    @inlinable
    func matchedType(_ context: SculptError.Context, by matcher: some ModelMatcher) throws -> ModelType? {
        do {
            return try matcher.modelType(for: context.response, data: context.body)
        } catch let error as SculptError {
            throw error
        } catch {
            throw SculptError.matcherFailed(underlying: error, context)
        }
    }

    @usableFromInline
    func decoding<T>(_ modelType: ModelType, _ context: SculptError.Context, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch let miss as KeyPathWalk.Miss {
            throw SculptError.keyPathNotFound(miss.report, context)
        } catch let error as ModelKeyPath.SyntaxError {
            throw SculptError.invalidKeyPath(error, context)
        } catch {
            throw SculptError.decodingFailed(modelType, underlying: error, context)
        }
    }

    @inlinable
    static func allowsEmptyBody(_ response: ResponseContext) -> Bool {
        response.status == .noContent || response.status == .resetContent || response.method == .head
    }
}

extension Data {
    /// Whether the body is empty or nothing but JSON white space.
    @inlinable
    var isBlank: Bool {
        // One look at the bytes: `Data.first` and `isEmpty` each go through Data's representation.
        withUnsafeBytes { bytes in
            guard let first = bytes.first, JSONBytes.isWhitespace(first) else { return bytes.isEmpty }
            return bytes.allSatisfy(JSONBytes.isWhitespace)
        }
    }
}
