import Foundation
@testable import SculptLoading
import Testing

/// HTTP dates in the three forms a recipient must read (RFC 9110, section 5.6.7).
@Suite("HTTP dates")
struct HTTPDateTests {
    @Test("IMF-fixdate, RFC 850 and asctime give the same instant; anything else is nil", arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777.0),
        ("Sun Nov  6 08:49:37 1994", 784_111_777.0),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
        ("Tue, 29 Feb 2000 23:59:59 GMT", 951_868_799.0),
        ("Fri, 31 Dec 2099 12:00:00 GMT", 4_102_401_600.0),
        ("0", nil),
        ("-1", nil),
        ("Sun, 06 Nov 1994 08:49:37 PST", nil),
        ("Sun, 32 Nov 1994 08:49:37 GMT", nil),
        ("", nil),
    ] as [(String, Double?)])
    func parse(text: String, seconds: Double?) {
        #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == seconds)
    }
}
