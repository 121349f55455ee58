public import Sculpt

extension ContentDecoder {
    /// JSON under the media ranges of `ContentDecoder/jsonContentTypes`, read by a
    /// ``SculptJSONDecoder``: `JSONDecoder`'s answers, faster.
    ///
    /// - Parameter decoder: the decoder, with the strategies it reads by.
    /// - Returns: the decoder and the JSON media ranges.
    ///
    /// ```swift
    /// var decoder = SculptJSONDecoder()
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// let serializer = ModelResponseSerializer(matcher: routes, decoders: [.json(decoder)])
    /// ```
    public static func json(_ decoder: SculptJSONDecoder) -> ContentDecoder {
        ContentDecoder(decoder, for: jsonContentTypes)
    }
}
