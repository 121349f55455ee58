import Foundation
import Sculpt
import SculptShared

/// Dates as HTTP writes them (RFC 9110, section 5.6.7): IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`) forms, which a recipient must also read.
///
/// ```swift
/// HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")   // 1994-11-06 08:49:37 +0000
/// ```
enum HTTPDate {
    /// The date, or `nil` when `text` is in none of the three forms.
    static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        switch words.count {
        case 4 where words[1].contains("-"):
            // RFC 850: weekday, DD-Mon-YY, time, GMT.
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, words[3] == "GMT", let year = Int(parts[2]), parts[2].count == 2 else { return nil }
            // Two-digit years: RFC 9110 reads one more than 50 years ahead as the past century.
            let current = 1970 + Int(Date().timeIntervalSince1970 / 31_556_952)
            var full = current / 100 * 100 + year
            if full > current + 50 { full -= 100 }
            return date(day: parts[0], month: parts[1], year: full, time: words[2])
        case 6 where words[5] == "GMT":
            // IMF-fixdate: weekday, DD, Mon, YYYY, time, GMT.
            guard let year = Int(words[3]), words[3].count == 4 else { return nil }
            return date(day: words[1], month: words[2], year: year, time: words[4])
        case 5:
            // asctime: weekday, Mon, D, time, YYYY.
            guard let year = Int(words[4]), words[4].count == 4 else { return nil }
            return date(day: words[2], month: words[1], year: year, time: words[3])
        default:
            return nil
        }
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func date(day: String, month: String, year: Int, time: String) -> Date? {
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard let day = Int(day), (1...31).contains(day), let month = months.firstIndex(of: ASCII.lowercased(month)),
            clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month + 1, day: day) * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (the civil-from-days
    /// inverse: eras of 400 years, years starting in March so the leap day comes last).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
