package import HTTPTypes

extension HTTPResponse.Status {
    /// The status with `code` and the reason phrase RFC 9110 (or the IANA registry) gives it, such
    /// as `404 Not Found`; an empty phrase for a code none names. A code outside `0...999`, which
    /// a status cannot hold, becomes 0, which no serializer accepts (see
    /// `ModelResponseSerializer.acceptableStatusCodes`).
    ///
    /// ```swift
    /// HTTPResponse.Status.standard(404).reasonPhrase   // "Not Found"
    /// HTTPResponse.Status.standard(299).reasonPhrase   // ""
    /// ```
    ///
    /// `HTTPResponse.Status(code:)` leaves the phrase empty, and Foundation's responses carry none,
    /// so statuses built from a code (a `URLResponse`, a fixture file, a saved response) take it
    /// from here: descriptions then read `-> 404 Not Found` on every platform.
    package static func standard(_ code: Int) -> Self {
        switch code {
        case 100: .continue
        case 101: .switchingProtocols
        case 102: .init(code: 102, reasonPhrase: "Processing")
        case 103: .earlyHints
        case 200: .ok
        case 201: .created
        case 202: .accepted
        case 203: .nonAuthoritativeInformation
        case 204: .noContent
        case 205: .resetContent
        case 206: .partialContent
        case 207: .init(code: 207, reasonPhrase: "Multi-Status")
        case 208: .init(code: 208, reasonPhrase: "Already Reported")
        case 226: .init(code: 226, reasonPhrase: "IM Used")
        case 300: .multipleChoices
        case 301: .movedPermanently
        case 302: .found
        case 303: .seeOther
        case 304: .notModified
        case 305: .init(code: 305, reasonPhrase: "Use Proxy")
        case 307: .temporaryRedirect
        case 308: .permanentRedirect
        case 400: .badRequest
        case 401: .unauthorized
        case 402: .init(code: 402, reasonPhrase: "Payment Required")
        case 403: .forbidden
        case 404: .notFound
        case 405: .methodNotAllowed
        case 406: .notAcceptable
        case 407: .proxyAuthenticationRequired
        case 408: .requestTimeout
        case 409: .conflict
        case 410: .gone
        case 411: .lengthRequired
        case 412: .preconditionFailed
        case 413: .contentTooLarge
        case 414: .uriTooLong
        case 415: .unsupportedMediaType
        case 416: .rangeNotSatisfiable
        case 417: .expectationFailed
        case 421: .misdirectedRequest
        case 422: .unprocessableContent
        case 423: .init(code: 423, reasonPhrase: "Locked")
        case 424: .init(code: 424, reasonPhrase: "Failed Dependency")
        case 425: .tooEarly
        case 426: .upgradeRequired
        case 428: .preconditionRequired
        case 429: .tooManyRequests
        case 431: .requestHeaderFieldsTooLarge
        case 451: .unavailableForLegalReasons
        case 500: .internalServerError
        case 501: .notImplemented
        case 502: .badGateway
        case 503: .serviceUnavailable
        case 504: .gatewayTimeout
        case 505: .httpVersionNotSupported
        case 506: .init(code: 506, reasonPhrase: "Variant Also Negotiates")
        case 507: .init(code: 507, reasonPhrase: "Insufficient Storage")
        case 508: .init(code: 508, reasonPhrase: "Loop Detected")
        case 510: .init(code: 510, reasonPhrase: "Not Extended")
        case 511: .networkAuthenticationRequired
        case 0...999: .init(code: code)
        default: .init(code: 0)
        }
    }
}
