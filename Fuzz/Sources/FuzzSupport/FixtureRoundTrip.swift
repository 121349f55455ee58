import Foundation
import SculptTesting

/// Checks that a fixture survives being written and read again: byte-exact encoding keeps every
/// field, and the default encoding is readable.
public func checkRoundTrip(_ fixture: Fixture) {
    guard let exact = try? Fixture(json: fixture.encoded(byteExact: true)) else {
        require(false, "a byte-exact fixture does not read back: \(String(decoding: fixture.encoded(byteExact: true), as: UTF8.self))")
        return
    }
    require(exact.request.method == fixture.request.method, "method \(fixture.request.method) read back as \(exact.request.method)")
    require(exact.request.url == fixture.request.url, "URL \(fixture.request.url) read back as \(exact.request.url)")
    require(exact.request.headerFields == fixture.request.headerFields, "request headers changed")
    require(exact.request.body == fixture.request.body, "request body changed")
    require(exact.response.status.code == fixture.response.status.code, "status \(fixture.response.status) read back as \(exact.response.status)")
    require(exact.response.headerFields == fixture.response.headerFields, "response headers changed")
    require(exact.response.body == fixture.response.body, "response body changed")
    require((try? Fixture(json: fixture.encoded())) != nil, "a fixture's default encoding does not read back")
}
