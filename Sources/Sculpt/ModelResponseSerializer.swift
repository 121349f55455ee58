public import Foundation
import SculptShared
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
/// 1. A status outside ``acceptableStatusCodes`` throws: ``SculptError/Reason/errorResponse(model:)``
///    with the decoded error model when ``errorMatcher`` resolves one and the body decodes as it,
///    else ``SculptError/Reason/unacceptableStatusCode(underlying:)``.
/// 2. A body over ``maximumBodySize`` or nesting deeper than ``maximumNestingDepth`` throws
///    ``SculptError/Reason/bodyTooLarge(maximum:)`` or ``SculptError/Reason/nestingTooDeep(maximum:offset:)``
///    before any matcher reads it (limits are off by default).
/// 3. An empty body is allowed for 204, 205 and `HEAD` (for 204 and 205 one of only white space
///    too): it yields the matched type's ``EmptyBodyRepresentable/emptyBodyValue`` (`nil` for an
///    optional), else ``NoContent``. Any other empty body throws
///    ``SculptError/Reason/emptyBody(expected:)``; so does a body of only white space, as soon as a later
///    step fails on it (its bytes are not read twice).
/// 4. A `Content-Type` outside ``acceptableContentTypes`` throws
///    ``SculptError/Reason/unacceptableContentType(acceptable:)``; a response without one, or with an
///    empty one, is accepted. The first `Content-Type` field counts; a value that is not
///    `type/subtype` (`text`, `application /json`) is outside every range.
/// 5. The matcher picks the model type; `nil` throws ``SculptError/Reason/noModelMatched(candidates:)``.
/// 6. A model type that is an ``ErrorResponseModel`` is decoded and thrown as
///    ``SculptError/Reason/errorResponse(model:)``; one that is not the type the caller asked for throws
///    ``SculptError/Reason/typeMismatch(expected:matched:)``.
/// 7. The body is decoded at the model type's key path, by the first of ``decoders`` that reads its
///    `Content-Type` (the first of all for a response without one); failures throw
///    ``SculptError/Reason/decodingFailed(_:underlying:)`` or ``SculptError/Reason/keyPathNotFound(_:)``.
///
/// The matcher is asked at most once per response: once for every response that reaches step 5,
/// and for a bodiless response to the untyped ``serialize(_:for:)`` (whose value is the matched
/// type's empty value) or an empty body where the untyped call names the model it expected. A
/// bodiless response to a typed call yields the caller's type's own empty value without asking.
/// Each step only checks; the error it throws is built out of line
/// (`ModelResponseSerializer+Failures.swift`) from what the steps before it resolved.
public struct ModelResponseSerializer<Matcher: ModelMatcher>: ResponseSerializer {
    /// Any model: cast it, or use ``serialize(_:for:as:)`` to get a typed one.
    public typealias Output = any Decodable & Sendable

    /// Picks the model type of a successful response.
    public var matcher: Matcher

    /// Turn bodies into models, each for the content types it reads: a response's `Content-Type`
    /// picks the first that reads it; a response without one, or of a type none reads (when
    /// ``acceptableContentTypes`` lets it through), is decoded by the first. The initializer
    /// accepts the content types its decoders read; setting the decoders later leaves
    /// ``acceptableContentTypes`` as it is.
    ///
    /// ```swift
    /// let xml = ContentDecoder.xml()  // from SculptXML
    /// serializer.decoders.append(xml)
    /// serializer.acceptableContentTypes?.formUnion(xml.contentTypes)
    /// ```
    public var decoders: [ContentDecoder] {
        get { decoding.decoders }
        set { decoding = DecoderChoice(newValue) }
    }

    /// Picks the model type of an error response's body (a status outside
    /// ``acceptableStatusCodes``); `nil` keeps error bodies undecoded, though still attached.
    public var errorMatcher: (any ModelMatcher)?

    /// The statuses whose bodies are models; others are errors. Default: 200...299. Codes outside
    /// 1...999 are never accepted: a context's status 0 stands for one it could not hold.
    public var acceptableStatusCodes: Set<Int> {
        get { statusCodeFilter.codes }
        set { statusCodeFilter = StatusCodeFilter(newValue) }
    }

    /// The media ranges a `Content-Type` must fall in: exact types (`application/json`), a whole
    /// type (`text/*`), or a structured suffix (`*/*+json`). Compared case-insensitively with
    /// parameters ignored. `nil` accepts any content type. Default: the types the initializer's
    /// decoders read (``ContentDecoder/jsonContentTypes`` for the default JSON decoder).
    public var acceptableContentTypes: Set<String>? {
        get { contentTypeFilter?.patterns }
        set { contentTypeFilter = newValue.map(ContentTypeFilter.init) }
    }

    /// The largest body, in bytes, the serializer reads (error bodies included); a larger one throws
    /// ``SculptError/Reason/bodyTooLarge(maximum:)`` before any matcher or decoder reads it. `nil`,
    /// the default, reads any size; a negative limit is 0.
    ///
    /// ```swift
    /// serializer.maximumBodySize = 8 << 20  // 8 MiB
    /// ```
    public var maximumBodySize: Int?

    /// The deepest nesting the serializer decodes, as the body's decoder counts levels (JSON arrays
    /// and objects; XML elements for SculptXML's decoder and XML property lists); a deeper body
    /// throws ``SculptError/Reason/nestingTooDeep(maximum:offset:)`` (one pass over the bytes,
    /// before any matcher reads it). `nil`, the default, leaves nesting to the decoder
    /// (`JSONDecoder` itself refuses more than 512 levels, SculptXML's more than 256). A negative
    /// limit is 0: no array or object at all.
    ///
    /// ```swift
    /// serializer.maximumNestingDepth = 64
    /// ```
    public var maximumNestingDepth: Int?

    /// Receives each decision a decode makes that loses part of a response without failing it: an
    /// element a ``LossyArray`` or ``LossyPolymorphicArray`` skipped, a ``Lossy`` model left `nil`,
    /// an unknown type tag answered by a fallback type (a ``TypeFieldFamily``'s, or a type-field
    /// matcher's). `nil`, the default, hears nothing.
    ///
    /// ```swift
    /// serializer.decodingObserver = { event in
    ///     logger.warning("\(event)")  // one line: the redacted URL, the route, what was lost and why
    /// }
    /// ```
    ///
    /// A response's events are delivered when it serializes, in the order the decode made them,
    /// on the thread that serializes, just before the serializer returns; a response that fails
    /// throws its error and delivers none. Only decodes this serializer runs are observed (with
    /// what a model's own `init(from:)` decodes inside them, of other data, counted as theirs);
    /// what the observer decodes itself is not. An observer costs a response nothing until it has
    /// something to report; keep it quick, as the call waits for it. A serializer without one,
    /// called while another's decode runs, keeps its events from that observer.
    public var decodingObserver: (@Sendable (DecodingEvent) -> Void)?

    // Each setting above is stored as every response reads it, made ready when it is set.

    /// ``decoders``, ready to be chosen from.
    @usableFromInline var decoding: DecoderChoice

    /// ``acceptableStatusCodes``, ready to be asked.
    @usableFromInline var statusCodeFilter: StatusCodeFilter

    /// ``acceptableContentTypes``, parsed; `nil` accepts any.
    var contentTypeFilter: ContentTypeFilter?

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = ModelResponseSerializer(
    ///     matcher: routes,
    ///     decoder: JSONDecoder(),
    ///     errorMatcher: StaticModelMatcher(APIError.self))
    /// ```
    /// - Parameters:
    ///   - matcher: picks the model type of each successful response.
    ///   - decoder: decodes every body, accepted under ``ContentDecoder/jsonContentTypes``.
    ///   - errorMatcher: picks the model type of an error response's body; `nil` decodes none.
    public init(matcher: Matcher, decoder: any ModelDecoder = JSONDecoder(), errorMatcher: (any ModelMatcher)? = nil) {
        self.init(matcher: matcher, decoders: [ContentDecoder(decoder, for: ContentDecoder.jsonContentTypes)], errorMatcher: errorMatcher)
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
    /// - Parameters:
    ///   - matcher: picks the model type of each successful response.
    ///   - decoders: decode the bodies of the content types each reads; the first decodes a body
    ///     of any other type.
    ///   - errorMatcher: picks the model type of an error response's body; `nil` decodes none.
    public init(matcher: Matcher, decoders: [ContentDecoder], errorMatcher: (any ModelMatcher)? = nil) {
        self.matcher = matcher
        self.errorMatcher = errorMatcher
        self.decoding = DecoderChoice(decoders)
        self.statusCodeFilter = StatusCodeFilter(StatusCodeFilter.successCodes)
        // Without decoders, bodies are read as JSON (``DecoderChoice/primary``), and so accepted.
        let contentTypes = decoders.isEmpty ? ContentDecoder.jsonContentTypes : decoders.reduce(into: []) { $0.formUnion($1.contentTypes) }
        self.contentTypeFilter = ContentTypeFilter(contentTypes)
    }

    /// Serializes a response into the model its matcher picks.
    ///
    /// ```swift
    /// let model = try serializer.serialize(data, for: ResponseContext(url: url))
    /// if let user = model as? User { print(user.login) }
    /// ```
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response it came with.
    /// - Throws: ``SculptError``, at the first step of the pipeline that fails (see the type's
    ///   documentation).
    public func serialize(_ data: Data, for response: ResponseContext) throws(SculptError) -> Output {
        try running(response, data) { () throws(SculptError) in try steps(data, response) }
    }

    /// The steps of ``serialize(_:for:)``.
    private func steps(_ data: Data, _ response: ResponseContext) throws(SculptError) -> Output {
        switch try resolve(response, data, expecting: nil) {
        case .bodiless: return try bodilessValue(response, data)
        case .model(let modelType): return try decode(modelType.type, as: modelType, response, data)
        }
    }

    /// Serializes a response into a model of type `M`, checking that the matcher agrees.
    ///
    /// ```swift
    /// let user = try serializer.serialize(data, for: context, as: User.self)
    /// ```
    ///
    /// The matcher still picks the model type (and with it the key path): asking for `User` where
    /// it resolved `[User]` is a ``SculptError/Reason/typeMismatch(expected:matched:)``, not a guess. A
    /// bodiless 204, 205 or `HEAD` response yields `M`'s empty value when `M` is
    /// ``EmptyBodyRepresentable`` (`NoContent`, any `Optional`).
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response it came with.
    ///   - type: the model the matcher must resolve.
    /// - Throws: ``SculptError``, at the first step of the pipeline that fails.
    @inlinable
    public func serialize<M: Decodable & Sendable>(_ data: Data, for response: ResponseContext, as type: M.Type) throws(SculptError) -> M {
        try running(response, data) { () throws(SculptError) in try steps(data, response, as: M.self) }
    }

    /// Runs the steps of one response: sharing the body's scan between the matcher and the
    /// decoder, and observed when there is a ``decodingObserver`` (or an observed call to keep
    /// this one's events from).
    @inlinable
    func running<T>(_ response: ResponseContext, _ data: Data, _ steps: () throws(SculptError) -> T) throws(SculptError) -> T {
        guard decodingObserver != nil || DecodingObservation.isObserving else { return try decoding.sharingScans(steps) }
        return try DecodingObservation.observing(decodingObserver, response, data, matcher) { () throws(SculptError) in
            try decoding.sharingScans(steps)
        }
    }

    /// The steps of ``serialize(_:for:as:)``.
    @inlinable
    func steps<M: Decodable & Sendable>(_ data: Data, _ response: ResponseContext, as type: M.Type) throws(SculptError) -> M {
        switch try resolve(response, data, expecting: M.self) {
        case .bodiless: return try bodilessValue(response, data, as: M.self)
        case .model(let modelType): return try decode(M.self, as: modelType, response, data)
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
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response it came with.
    ///   - type: the model the matcher must resolve.
    @inlinable
    public func result<M: Decodable & Sendable>(_ data: Data, for response: ResponseContext, as type: M.Type) -> Result<M, SculptError> {
        Result { () throws(SculptError) in try serialize(data, for: response, as: M.self) }
    }

    // MARK: - Steps
    //
    // `@inlinable` where a benchmark shows it (Docs/Performance.md): the typed `serialize` (and
    // `result`), so the caller specializes it for its matcher and model, `resolve` and `decode`
    // with `ModelType.decode`. The untyped entry points and the small functions cost nothing
    // measurable as calls.

    /// What steps 1 to 6 resolve a response to.
    @usableFromInline
    enum Resolution {
        /// A 204, 205 or `HEAD` response without a body: there is nothing to decode.
        case bodiless
        /// The body is a model of this type.
        case model(ModelType)
    }

    /// Steps 1 to 6 (see the type's documentation): what the response holds, or the error it is.
    /// `expected` is the type the caller asked for, `nil` for any.
    @inlinable
    func resolve(_ response: ResponseContext, _ data: Data, expecting expected: (any (Decodable & Sendable).Type)?) throws(SculptError) -> Resolution {
        // 1. The status.
        guard statusCodeFilter.accepts(response.status.code) else { throw statusFailure(response, data) }
        // 2. The limits, when set.
        if maximumBodySize != nil || maximumNestingDepth != nil { try checkLimits(response, data) }
        // 3. An empty body. One of only white space is found when a later step fails on it, so that
        // no body's bytes are looked at here.
        if response.status == .noContent || response.status == .resetContent {
            if data.isBlank { return .bodiless }
        } else if data.isEmpty {
            guard response.method == .head else { throw emptyBodyFailure(expecting: expected, response, data) }
            return .bodiless
        }
        // 4. The content type.
        guard acceptsContentType(of: response) else { throw contentTypeFailure(expecting: expected, response, data) }
        // 5. The model type.
        let matched: ModelType?
        do {
            matched = try matcher.modelType(for: response, data: data)
        } catch {
            throw matcherFailure(error, expecting: expected, response, data)
        }
        guard let modelType = matched else { throw noModelFailure(expecting: expected, response, data) }
        // 6. A model to return.
        if modelType.isErrorResponse || expected.map({ modelType.type != $0 }) ?? false {
            throw rejectedModelFailure(modelType, expecting: expected, response, data)
        }
        return .model(modelType)
    }

    /// Step 7: the body decoded as `modelType`, which is an `M` (the caller's type, or the model
    /// type's own, opened).
    @inlinable
    func decode<M: Decodable & Sendable>(_ type: M.Type, as modelType: ModelType, _ response: ResponseContext, _ data: Data) throws(SculptError) -> M {
        do {
            // The decoder as stored, not returned by `decoder(for:)`: a returned existential is a
            // copy, which costs a retain and a release.
            guard decoding.negotiates else { return try modelType.decode(M.self, from: data, using: decoding.primary) }
            return try modelType.decode(M.self, from: data, using: negotiatedDecoder(for: response))
        } catch {
            throw decodingFailure(error, modelType, response, data)
        }
    }

    /// What a bodiless 204, 205 or `HEAD` response yields: the matched type's empty value, else
    /// ``NoContent``.
    func bodilessValue(_ response: ResponseContext, _ data: Data) throws(SculptError) -> Output {
        let modelType: ModelType?
        do {
            modelType = try matcher.modelType(for: response, data: data)
        } catch {
            throw Self.matcherFailure(error, response, data)
        }
        return modelType?.emptyValue ?? NoContent()
    }

    /// What a bodiless response yields as `M`: its empty value, when it has one.
    @usableFromInline
    func bodilessValue<M: Decodable & Sendable>(_ response: ResponseContext, _ data: Data, as type: M.Type) throws(SculptError) -> M {
        guard let value = ModelType.emptyBodyValue(of: M.self) else {
            throw SculptError(.emptyBody(expected: String(describing: M.self)), response: response, body: data)
        }
        return value
    }

    /// Throws when the body is over ``maximumBodySize`` or nests deeper than ``maximumNestingDepth``.
    @usableFromInline
    func checkLimits(_ response: ResponseContext, _ data: Data) throws(SculptError) {
        if let limit = maximumBodySize.map({ Swift.max(0, $0) }), data.count > limit {
            throw SculptError(.bodyTooLarge(maximum: limit), response: response, body: data)
        }
        if let limit = maximumNestingDepth.map({ Swift.max(0, $0) }), let offset = decoder(for: response).nestingOffset(exceeding: limit, in: data) {
            throw SculptError(.nestingTooDeep(maximum: limit, offset: offset), response: response, body: data)
        }
    }

    /// Whether the first `Content-Type` is acceptable; a response without one is.
    @usableFromInline
    func acceptsContentType(of response: ResponseContext) -> Bool {
        // Read without `HTTPFields`' subscript (which joins repeated values into a new string on
        // every call) or converting a Foundation response's fields.
        guard let contentTypeFilter else { return true }
        return response.source.contentType(isAcceptedBy: contentTypeFilter)
    }

    /// The decoder for a response's body: the first of ``decoders`` that reads its content type,
    /// else the first of all.
    package func decoder(for response: ResponseContext) -> any ModelDecoder {
        decoding.negotiates ? negotiatedDecoder(for: response) : decoding.primary
    }

    /// The first of ``decoders`` that reads the response's content type, else the first of all.
    @usableFromInline
    func negotiatedDecoder(for response: ResponseContext) -> any ModelDecoder {
        guard let contentType = response.source.mediaType else { return decoding.primary }
        return decoding.decoders.first { $0.filter.accepts(contentType) }?.decoder ?? decoding.primary
    }
}

extension Data {
    /// Whether the body holds no JSON text: empty, or nothing but white space after a byte order
    /// mark, in UTF-8 or, as `JSONDecoder` reads them, UTF-16 and UTF-32.
    @usableFromInline
    var isBlank: Bool {
        // One look at the bytes: `Data.first` and `isEmpty` each go through Data's representation.
        let inPlace = withUnsafeBytes { bytes -> Bool? in
            guard let first = bytes.first else { return true }
            guard !JSONText.mayNeedTranscoding(bytes) else { return nil }
            guard JSONBytes.isWhitespace(first) || first == 0xEF else { return false }
            let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
            return text.allSatisfy(JSONBytes.isWhitespace)
        }
        if let inPlace { return inPlace }
        guard let text = JSONText(self) else { return false }
        return text.utf8.allSatisfy(JSONBytes.isWhitespace)
    }
}
