public import Foundation
public import HTTPTypes

/// The serializer that asks a ``ModelMatcher`` which model type a response holds, then decodes it.
///
/// ```swift
/// var routes = URLModelMatcher(pathPrefix: "/v3")
/// try routes.add("/users/*", User.self)
/// let serializer = ModelResponseSerializer(matcher: routes)
/// let user = try await URLSession.shared.model(from: url, serializer: serializer, as: User.self)
/// ```
///
/// For each response, in this order:
/// 1. A status outside ``acceptableStatusCodes`` throws: ``SculptError/errorResponse(model:_:)``
///    with the decoded error model when ``errorMatcher`` resolves one and the body decodes as it,
///    else ``SculptError/unacceptableStatusCode(underlying:_:)``.
/// 2. A body over ``maximumBodySize`` or nesting deeper than ``maximumNestingDepth`` throws
///    ``SculptError/bodyTooLarge(maximum:_:)`` or ``SculptError/nestingTooDeep(maximum:offset:_:)``
///    before any matcher reads it (limits are off by default).
/// 3. An empty body is allowed for 204, 205 and `HEAD` (for 204 and 205 one of only white space
///    too): it yields the matched type's ``EmptyBodyRepresentable/emptyBodyValue`` (`nil` for an
///    optional), else ``NoContent``. Any other empty body throws
///    ``SculptError/emptyBody(expected:_:)``; so does a body of only white space, as soon as a later
///    step fails on it (its bytes are not read twice).
/// 4. A `Content-Type` outside ``acceptableContentTypes`` throws
///    ``SculptError/unacceptableContentType(acceptable:_:)``; a response without one is accepted.
/// 5. The matcher picks the model type; `nil` throws ``SculptError/noModelMatched(candidates:_:)``.
/// 6. The body is decoded at the model type's key path, by the first of ``decoders`` that reads its
///    `Content-Type` (the first of all for a response without one); failures throw
///    ``SculptError/decodingFailed(_:underlying:_:)`` or ``SculptError/keyPathNotFound(_:_:)``.
public struct ModelResponseSerializer<Matcher: ModelMatcher>: ResponseSerializer {
    /// Any model: cast it, or use ``serialize(_:for:as:)`` to get a typed one.
    public typealias Output = any Decodable & Sendable

    /// The content types accepted by default: JSON under its registered and legacy names, and any
    /// `+json` structured suffix (`application/vnd.github+json`, `application/problem+json`).
    public static var defaultContentTypes: Set<String> { ContentDecoder.jsonContentTypes }

    /// Picks the model type of a successful response.
    public var matcher: Matcher

    /// Turn bodies into models, each for the content types it reads: a response's `Content-Type`
    /// picks the first that reads it; a response without one, or of a type none reads (when
    /// ``acceptableContentTypes`` lets it through), is decoded by the first. Setting the decoders
    /// sets ``acceptableContentTypes`` to the types they read.
    ///
    /// ```swift
    /// serializer.decoders = [.json(), .xml()]  // .xml() from SculptXML
    /// // Content-Type: application/rss+xml is now accepted and decoded as XML.
    /// ```
    public var decoders: [ContentDecoder] {
        didSet {
            primaryDecoder = Self.primaryDecoder(of: decoders)
            negotiates = decoders.count > 1
            acceptableContentTypes = Self.contentTypes(of: decoders)
        }
    }

    /// The first of ``decoders``, read without an array access on every response; a `JSONDecoder`
    /// when there are none.
    @usableFromInline var primaryDecoder: any ModelDecoder

    /// Picks the model type of an error response's body (a status outside
    /// ``acceptableStatusCodes``); `nil` keeps error bodies undecoded, though still attached.
    public var errorMatcher: (any ModelMatcher)?

    /// The statuses whose bodies are models; others are errors. Default: 200...299. Codes outside
    /// 1...999 are never accepted: a context's status 0 stands for one it could not hold.
    public var acceptableStatusCodes: Set<Int> = Self.successStatusCodes {
        didSet { statusCodeFilter = StatusCodeFilter(acceptableStatusCodes) }
    }

    /// The media ranges a `Content-Type` must fall in: exact types (`application/json`), a whole
    /// type (`text/*`), or a structured suffix (`*/*+json`). Compared case-insensitively with
    /// parameters ignored. `nil` accepts any content type. Default: the types ``decoders`` read
    /// (``defaultContentTypes`` for the default JSON decoder); setting ``decoders`` sets it again.
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

    /// The deepest nesting the serializer decodes, as the body's decoder counts levels (JSON arrays
    /// and objects; XML elements for SculptXML's decoder and XML property lists); a deeper body
    /// throws ``SculptError/nestingTooDeep(maximum:offset:_:)`` (one pass over the bytes, before
    /// any matcher reads it). `nil`, the default, leaves nesting to the decoder (`JSONDecoder`
    /// itself refuses more than 512 levels, SculptXML's more than 256).
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

    /// Whether there is more than one decoder to choose from.
    @usableFromInline var negotiates = false

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = ModelResponseSerializer(
    ///     matcher: routes,
    ///     decoder: JSONDecoder(),
    ///     errorMatcher: StaticModelMatcher(APIError.self))
    /// ```
    public init(matcher: Matcher, decoder: any ModelDecoder = JSONDecoder(), errorMatcher: (any ModelMatcher)? = nil) {
        self.init(matcher: matcher, decoders: [ContentDecoder(decoder, for: Self.defaultContentTypes)], errorMatcher: errorMatcher)
    }

    /// Creates a serializer that picks a decoder for each response by its `Content-Type`, and
    /// accepts the content types the decoders read.
    ///
    /// ```swift
    /// let serializer = ModelResponseSerializer(
    ///     matcher: routes,
    ///     decoders: [.json(), .xml(), .propertyList()],  // .xml() from SculptXML
    ///     errorMatcher: StaticModelMatcher(SOAPFault.self, at: "Body.Fault"))
    /// ```
    public init(matcher: Matcher, decoders: [ContentDecoder], errorMatcher: (any ModelMatcher)? = nil) {
        self.matcher = matcher
        self.decoders = decoders
        self.primaryDecoder = Self.primaryDecoder(of: decoders)
        self.errorMatcher = errorMatcher
        self.negotiates = decoders.count > 1
        let contentTypes = Self.contentTypes(of: decoders)
        if contentTypes != Self.defaultContentTypes {
            self.acceptableContentTypes = contentTypes
            self.contentTypeFilter = ContentTypeFilter(contentTypes)
        }
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
    public func serialize(_ data: Data, for response: ResponseContext) throws(SculptError) -> Output {
        guard let modelType = try resolvedType(response, data, expecting: nil) else {
            return try bodilessValue(response, data)
        }
        try checkIsModel(modelType, expected: nil, response, data)
        do {
            // The decoder as stored, not through `decoder(for:)`: a returned existential is a copy.
            guard negotiates else { return try modelType.decode(data, using: primaryDecoder) }
            return try modelType.decode(data, using: negotiatedDecoder(for: response))
        } catch {
            throw emptyBodyOr(Self.decodingFailure(error, modelType, response, data), expecting: nil, response, data)
        }
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
    public func serialize<M: Decodable & Sendable>(_ data: Data, for response: ResponseContext, as type: M.Type) throws(SculptError) -> M {
        guard let modelType = try resolvedType(response, data, expecting: M.self) else {
            return try bodilessValue(response, data, as: M.self)
        }
        try checkIsModel(modelType, expected: M.self, response, data)
        do {
            // The decoder as stored, not through `decoder(for:)`: a returned existential is a copy.
            guard negotiates else { return try modelType.decode(M.self, from: data, using: primaryDecoder) }
            return try modelType.decode(M.self, from: data, using: negotiatedDecoder(for: response))
        } catch {
            throw emptyBodyOr(Self.decodingFailure(error, modelType, response, data), expecting: M.self, response, data)
        }
    }

    /// The outcome of serializing a response into `M`, as a `Result` whose failure is typed: for
    /// code that passes outcomes on rather than throwing.
    ///
    /// ```swift
    /// switch serializer.result(data, for: context, as: Issue.self) {
    /// case .success(let issue): show(issue)
    /// case .failure(let error): show(error.errorModel(as: APIError.self)?.message ?? "\(error)")
    /// }
    /// ```
    @inlinable
    public func result<M: Decodable & Sendable>(_ data: Data, for response: ResponseContext, as type: M.Type) -> Result<M, SculptError> {
        Result { () throws(SculptError) in try serialize(data, for: response, as: M.self) }
    }

    // MARK: - Steps
    //
    // The steps do only the checks, specialized into the caller; each failure is built by a
    // function of its own (below), out of line, so that the code a response runs through stays
    // small and the error's context (a copy of the response and body) is made only on failure.

    /// Steps 1 to 5: the model type to decode, or `nil` for a response that may be and is bodiless.
    /// `expected` is the model the caller wants, named in the message of an unexpected empty body.
    @inlinable
    func resolvedType(_ response: ResponseContext, _ data: Data, expecting expected: Any.Type?) throws(SculptError) -> ModelType? {
        guard statusCodeFilter.accepts(response.status.code) else {
            throw statusFailure(response, data)
        }
        if maximumBodySize != nil || maximumNestingDepth != nil {
            try checkLimits(response, data)
        }
        // A body of only white space is found when a step fails on it, not here: looking at the
        // bytes of every body cost a 1.2 KB decode 1% (three exclusivity checks on Data's storage).
        if response.status == .noContent || response.status == .resetContent {
            if data.isBlank { return nil }
        } else if data.isEmpty {
            guard response.method == .head else { throw emptyBodyFailure(expecting: expected, response, data) }
            return nil
        }
        guard acceptsContentType(of: response) else {
            throw emptyBodyOr(contentTypeFailure(response, data), expecting: expected, response, data)
        }
        let modelType: ModelType?
        do {
            modelType = try matchedType(response, data, by: matcher)
        } catch {
            throw emptyBodyOr(error, expecting: expected, response, data)
        }
        guard let modelType else {
            throw emptyBodyOr(noModelFailure(response, data), expecting: expected, response, data)
        }
        return modelType
    }

    /// Throws when the matched type is not a model to return: an ``ErrorResponseModel`` (decoded
    /// and thrown as ``SculptError/errorResponse(model:_:)``), or not the `expected` type.
    @inlinable
    func checkIsModel(_ modelType: ModelType, expected: (any (Decodable & Sendable).Type)?, _ response: ResponseContext, _ data: Data) throws(SculptError) {
        if modelType.isErrorResponse || expected.map({ modelType.type != $0 }) ?? false {
            throw emptyBodyOr(rejectedModelFailure(modelType, expected: expected, response, data), expecting: expected, response, data)
        }
    }

    @inlinable
    func acceptsContentType(of response: ResponseContext) -> Bool {
        // The first Content-Type's media type, found without `HTTPFields`' subscript (which joins
        // repeated values into a new string on every call) or converting a Foundation response's
        // fields.
        guard let contentTypeFilter else { return true }
        return response.source.contentType(isAcceptedBy: contentTypeFilter)
    }

    /// The decoder for a response's body: the first of ``decoders`` that reads its content type,
    /// else the first of all.
    @inlinable
    func decoder(for response: ResponseContext) -> any ModelDecoder {
        negotiates ? negotiatedDecoder(for: response) : primaryDecoder
    }

    /// The first of ``decoders`` that reads the response's content type, else the first of all.
    @usableFromInline
    func negotiatedDecoder(for response: ResponseContext) -> any ModelDecoder {
        guard let contentType = response.source.mediaType else { return primaryDecoder }
        return decoders.first { $0.filter.accepts(contentType) }?.decoder ?? primaryDecoder
    }

    static func primaryDecoder(of decoders: [ContentDecoder]) -> any ModelDecoder {
        decoders.first?.decoder ?? JSONDecoder()
    }

    static func contentTypes(of decoders: [ContentDecoder]) -> Set<String> {
        decoders.reduce(into: []) { $0.formUnion($1.contentTypes) }
    }

    /// The model type `matcher` picks; an error it throws that is not a ``SculptError`` becomes
    /// ``SculptError/matcherFailed(underlying:_:)``.
    @inlinable
    func matchedType(_ response: ResponseContext, _ data: Data, by matcher: some ModelMatcher) throws(SculptError) -> ModelType? {
        do {
            return try matcher.modelType(for: response, data: data)
        } catch {
            throw Self.matcherFailure(error, response, data)
        }
    }

    /// What a bodiless 204, 205 or `HEAD` response yields: the matched type's empty value, else
    /// ``NoContent``.
    @usableFromInline
    func bodilessValue(_ response: ResponseContext, _ data: Data) throws(SculptError) -> Output {
        try matchedType(response, data, by: matcher)?.emptyValue ?? NoContent()
    }

    /// What a bodiless response yields as `M`: its empty value, when it has one.
    @usableFromInline
    func bodilessValue<M>(_ response: ResponseContext, _ data: Data, as type: M.Type) throws(SculptError) -> M {
        guard let value = ModelType.emptyBodyValue(of: M.self) else {
            throw SculptError.emptyBody(expected: String(describing: M.self), .init(response: response, body: data))
        }
        return value
    }

    /// Throws when the body is over ``maximumBodySize`` or nests deeper than ``maximumNestingDepth``.
    @usableFromInline
    func checkLimits(_ response: ResponseContext, _ data: Data) throws(SculptError) {
        if let maximumBodySize, data.count > maximumBodySize {
            throw SculptError.bodyTooLarge(maximum: maximumBodySize, .init(response: response, body: data))
        }
        if let maximumNestingDepth, let offset = decoder(for: response).nestingOffset(exceeding: maximumNestingDepth, in: data) {
            throw SculptError.nestingTooDeep(maximum: maximumNestingDepth, offset: offset, .init(response: response, body: data))
        }
    }

    /// The error body decoded as the model ``errorMatcher`` picks; `nil` when there is no error
    /// matcher, no body, a content type that is not acceptable, or no model type for it. A body
    /// over the limits throws (and is reported as the reason the error model is missing).
    func errorModel(_ response: ResponseContext, _ data: Data) throws(SculptError) -> (any Decodable & Sendable)? {
        guard let errorMatcher, !data.isBlank, acceptsContentType(of: response) else { return nil }
        try checkLimits(response, data)
        guard let errorType = try matchedType(response, data, by: errorMatcher) else { return nil }
        do {
            return try errorType.decode(data, using: decoder(for: response))
        } catch {
            throw Self.decodingFailure(error, errorType, response, data)
        }
    }

    // MARK: - Failures

    /// Step 1's error: the decoded error model, else the unacceptable status (with the reason the
    /// error model is missing, if one was expected and failed).
    @usableFromInline @inline(never)
    func statusFailure(_ response: ResponseContext, _ data: Data) -> SculptError {
        let context = SculptError.Context(response: response, body: data)
        do {
            guard let model = try errorModel(response, data) else { return .unacceptableStatusCode(underlying: nil, context) }
            return .errorResponse(model: model, context)
        } catch {
            return .unacceptableStatusCode(underlying: error, context)
        }
    }

    /// Step 3's error: an empty body where a model was due, naming the model when it is known.
    @usableFromInline @inline(never)
    func emptyBodyFailure(expecting expected: Any.Type?, _ response: ResponseContext, _ data: Data) -> SculptError {
        let named = expected.map { String(describing: $0) } ?? (try? matchedType(response, data, by: matcher)).flatMap { $0?.description }
        return .emptyBody(expected: named, .init(response: response, body: data))
    }

    /// The error of a step after step 3: step 3's own when the body is only white space (the step
    /// failed because there was nothing to read), else `failure`.
    @usableFromInline @inline(never)
    func emptyBodyOr(_ failure: SculptError, expecting expected: Any.Type?, _ response: ResponseContext, _ data: Data) -> SculptError {
        data.isBlank ? emptyBodyFailure(expecting: expected, response, data) : failure
    }

    @usableFromInline @inline(never)
    func contentTypeFailure(_ response: ResponseContext, _ data: Data) -> SculptError {
        .unacceptableContentType(acceptable: (acceptableContentTypes ?? []).sorted(), .init(response: response, body: data))
    }

    @usableFromInline @inline(never)
    func noModelFailure(_ response: ResponseContext, _ data: Data) -> SculptError {
        .noModelMatched(candidates: matcher.nearestCandidates(for: response), .init(response: response, body: data))
    }

    @usableFromInline @inline(never)
    static func matcherFailure(_ error: any Error, _ response: ResponseContext, _ data: Data) -> SculptError {
        error as? SculptError ?? .matcherFailed(underlying: error, .init(response: response, body: data))
    }

    /// The error for a matched type that is not the model to return: the decoded error model of
    /// an ``ErrorResponseModel``, else the type mismatch.
    @usableFromInline @inline(never)
    func rejectedModelFailure(_ modelType: ModelType, expected: (any (Decodable & Sendable).Type)?, _ response: ResponseContext, _ data: Data)
        -> SculptError
    {
        let context = SculptError.Context(response: response, body: data)
        guard modelType.isErrorResponse else {
            return .typeMismatch(expected: expected ?? modelType.type, matched: modelType, context)
        }
        do {
            return .errorResponse(model: try modelType.decode(data, using: decoder(for: response)), context)
        } catch {
            return Self.decodingFailure(error, modelType, response, data)
        }
    }

    /// Step 6's error: a key path that does not resolve or parse, or a body that does not decode.
    @usableFromInline @inline(never)
    static func decodingFailure(_ error: any Error, _ modelType: ModelType, _ response: ResponseContext, _ data: Data) -> SculptError {
        let context = SculptError.Context(response: response, body: data)
        switch error {
        case let miss as KeyPathWalk.Miss: return .keyPathNotFound(miss.report, context)
        case let error as ModelKeyPath.SyntaxError: return .invalidKeyPath(error, context)
        default: return .decodingFailed(modelType, underlying: error, context)
        }
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
