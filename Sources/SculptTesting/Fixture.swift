public import Foundation
import SculptShared
public import HTTPTypes
public import Sculpt

/// A recorded HTTP interaction: the request that was made and the response that came back.
///
/// ```swift
/// let fixture = try Fixture(contentsOf: fixturesFolder.appending(path: "github/user.json"))
/// let user = try serializer.serialize(fixture.data, for: fixture.context, as: User.self)
/// ```
///
/// On disk a fixture is one readable JSON file (see `Docs/Fixtures.md`):
///
/// ```json
/// {
///   "request": { "method": "GET", "url": "https://api.github.com/users/octocat" },
///   "response": {
///     "status": 200,
///     "headers": [["Content-Type", "application/json; charset=utf-8"]],
///     "body": { "login": "octocat", "id": 1 }
///   }
/// }
/// ```
public struct Fixture: Sendable {
    /// The recorded request.
    public struct Request: Sendable {
        /// The request's method.
        public var method: HTTPRequest.Method
        /// The request's full URL.
        public var url: URL
        /// The request's recorded header fields.
        public var headerFields: HTTPFields
        /// The request's body, when it had one.
        public var body: Data?

        /// Creates a recorded request.
        /// - Parameters:
        ///   - method: the request's method.
        ///   - url: the request's URL.
        ///   - headerFields: the request's header fields.
        ///   - body: the request's body, or `nil`.
        public init(method: HTTPRequest.Method = .get, url: URL, headerFields: HTTPFields = [:], body: Data? = nil) {
            self.method = method
            self.url = url
            self.headerFields = headerFields
            self.body = body
        }
    }

    /// The recorded response.
    public struct Response: Sendable {
        /// The response's status.
        public var status: HTTPResponse.Status
        /// The response's header fields, in order, repeated fields kept.
        public var headerFields: HTTPFields
        /// The response body's bytes (empty when there was none).
        public var body: Data

        /// Creates a recorded response.
        /// - Parameters:
        ///   - status: the response's status.
        ///   - headerFields: the response's header fields.
        ///   - body: the response's body.
        public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: Data = Data()) {
            self.status = status
            self.headerFields = headerFields
            self.body = body
        }
    }

    /// Why a fixture file could not be read.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        /// The file that was read.
        public var file: URL?
        /// What was wrong with it.
        public var reason: String
        /// The line of the file where it is wrong (the first is 1), when the error came from
        /// reading a file and the place is known.
        public var line: Int?
        /// Where in the document it is wrong, made a ``line`` when the error came from a file.
        var location: Location?

        /// A place in a JSON document.
        enum Location: Sendable {
            /// A byte offset, where the text stops being JSON.
            case offset(Int)
            /// A value's path, such as `interactions[2].response.status`.
            case path(String)

            /// The line of `document` this place is on; `nil` for a path the document lacks.
            func line(in document: Data) -> Int? {
                switch self {
                case .offset(let offset): OrderedJSON.line(atOffset: offset, in: document)
                case .path(let path): OrderedJSON.offset(ofPath: path, in: document).map { OrderedJSON.line(atOffset: $0, in: document) }
                }
            }
        }

        /// E.g. `fixture user.json:7: response.status must be a number`; at most 4,096 bytes, a long
        /// file name or reason cut with its size stated (``reason`` keeps it whole).
        public var description: String {
            let name = ClippedText.value(file?.lastPathComponent ?? "(data)", limit: 256)
            return ShownText.line("fixture \(name)\(line.map { ":\($0)" } ?? ""): \(reason)", limit: 4_096)
        }

        /// `parse` applied to the contents of `file`, with the file, and the line when the place
        /// is known, named in any format error.
        static func reading<T>(_ file: URL, _ parse: (Data) throws -> T) throws -> T {
            let data = try Data(contentsOf: file)
            do {
                return try parse(data)
            } catch var error as FormatError {
                error.file = file
                if error.line == nil, let location = error.location {
                    error.line = location.line(in: data)
                }
                throw error
            }
        }
    }

    /// The recorded request.
    public var request: Request
    /// The recorded response.
    public var response: Response
    /// Where the fixture came from (`github/get-label.json`, `session.json #3`), for messages.
    public var source: String?

    /// Creates a fixture from its parts.
    ///
    /// ```swift
    /// let fixture = Fixture(request: .init(url: url), response: .init(status: .noContent))
    /// ```
    /// - Parameters:
    ///   - request: the recorded request.
    ///   - response: the recorded response.
    ///   - source: the file it was read from, named in errors; `nil` when unknown.
    public init(request: Request, response: Response, source: String? = nil) {
        self.request = request
        self.response = response
        self.source = source
    }

    /// Loads a fixture file.
    ///
    /// ```swift
    /// let fixture = try Fixture(contentsOf: URL(filePath: "Tests/Fixtures/github/get-label.json"))
    /// ```
    /// - Parameter file: the fixture file.
    /// - Throws: the file system's error when the file cannot be read; ``FormatError`` when it is
    ///   not one fixture (a cassette holds several: load it with ``Cassette``).
    public init(contentsOf file: URL) throws {
        self = try FormatError.reading(file) { try Fixture(json: $0) }
        source = file.lastPathComponent
    }

    /// Loads a fixture shipped as a bundle resource, such as a test target's `Bundle.module`.
    ///
    /// ```swift
    /// let fixture = try Fixture(named: "get-label", in: .module, subdirectory: "Fixtures/github")
    /// ```
    /// - Parameters:
    ///   - name: the resource's name, without its `.json` extension.
    ///   - bundle: the bundle holding it.
    ///   - subdirectory: the resource's folder inside the bundle; `nil` for its root.
    /// - Throws: ``FormatError`` when the bundle has no such `.json` resource or it is not a
    ///   fixture, and when `name` or `subdirectory` would leave the bundle's resource folder: an
    ///   absolute path, a `..` segment, or a file whose real path (symbolic links resolved) is
    ///   outside the folder.
    public init(named name: String, in bundle: Bundle, subdirectory: String? = nil) throws {
        try self.init(contentsOf: try BundleResource.file(named: name, extension: "json", in: bundle, subdirectory: subdirectory))
    }

    /// Reads a fixture from the bytes of a fixture file.
    ///
    /// ```swift
    /// let fixture = try Fixture(json: Data(#"{"request":{"url":"https://x/"},"response":{"status":204}}"#.utf8))
    /// ```
    /// - Parameter json: the file's bytes.
    /// - Throws: ``FormatError`` when the bytes are not a fixture.
    public init(json: Data) throws {
        let value: OrderedJSON
        do {
            value = try OrderedJSON(parsing: json, maximumDepth: OrderedJSON.maximumFileDepth)
        } catch {
            throw FormatError(reason: "not JSON: \(error)", location: .offset(error.offset))
        }
        try self.init(value, at: "")
    }

    /// The fixture as the text of a fixture file: pretty JSON, the body stored as JSON, text or
    /// base64 by what it is (see `Docs/Fixtures.md`), or, with `byteExact`, as text or base64 that
    /// keep every byte.
    ///
    /// ```swift
    /// try fixture.encoded().write(to: folder.appending(path: "get-label.json"))
    /// ```
    /// - Parameter byteExact: Whether bodies are written as base64, byte for byte, rather than as readable text where they are.
    public func encoded(byteExact: Bool = false) -> Data {
        Data((jsonValue(byteExact: byteExact).prettyText + "\n").utf8)
    }

    /// The response body: what a serializer decodes.
    public var data: Data { response.body }

    /// The response as a serializer sees it: the request's URL and method, the response's status
    /// and headers.
    public var context: ResponseContext {
        ResponseContext(url: request.url, method: request.method, status: response.status, headerFields: response.headerFields)
    }
}
