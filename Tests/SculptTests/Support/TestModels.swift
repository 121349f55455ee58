import Foundation

/// Distinct model types for matcher tables: which one a matcher picks is the observation.
struct ModelA: Decodable, Sendable, Equatable {}
struct ModelB: Decodable, Sendable, Equatable {}
struct ModelC: Decodable, Sendable, Equatable {}
struct ModelD: Decodable, Sendable, Equatable {}
struct ModelE: Decodable, Sendable, Equatable {}

struct User: Decodable, Sendable, Equatable {
    let login: String
    let id: Int
}

struct Label: Decodable, Sendable, Equatable {
    let name: String
    let color: String
}

struct Repository: Decodable, Sendable, Equatable {
    let id: Int
    let fullName: String

    enum CodingKeys: String, CodingKey {
        case id
        case fullName = "full_name"
    }
}

/// GitHub's error body.
struct APIError: Decodable, Sendable, Equatable {
    let message: String
}

/// A model type as a value, for table rows.
typealias AnyModel = any (Decodable & Sendable).Type
