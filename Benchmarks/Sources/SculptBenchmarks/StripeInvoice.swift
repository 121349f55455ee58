import Foundation

/// Stripe's invoice as a Stripe client models it: camel-case properties read with
/// `.convertFromSnakeCase`, optionals for the fields Stripe may leave null.
struct StripeInvoice: Decodable, Sendable {
    struct AutomaticTax: Decodable, Sendable {
        struct Liability: Decodable, Sendable { let type: String }
        let enabled: Bool
        let liability: Liability?
        let status: String?
        let disabledReason: String?
        let provider: String?
    }
    struct Address: Decodable, Sendable {
        let city: String?
        let country: String?
        let line1: String?
        let line2: String?
        let postalCode: String?
        let state: String?
    }
    struct StatusTransitions: Decodable, Sendable {
        let finalizedAt: Int?
        let markedUncollectibleAt: Int?
        let paidAt: Int?
        let voidedAt: Int?
    }
    struct ShippingCost: Decodable, Sendable {
        let amountSubtotal: Int
        let amountTax: Int
        let amountTotal: Int
        let shippingRate: String?
    }
    struct Lines: Decodable, Sendable {
        let data: [LineItem]
        let hasMore: Bool
        let object: String
        let url: String
    }
    struct LineItem: Decodable, Sendable {
        struct Period: Decodable, Sendable { let end: Int; let start: Int }
        struct Pricing: Decodable, Sendable { let type: String; let unitAmountDecimal: String? }
        let amount: Int
        let currency: String
        let description: String?
        let discountable: Bool
        let id: String
        let invoice: String?
        let livemode: Bool
        let metadata: [String: String]
        let object: String
        let period: Period
        let quantity: Int?
        let subscription: String?
        let pricing: Pricing?
        let subtotal: Int
    }

    let accountCountry: String?
    let accountName: String?
    let amountDue: Int
    let amountPaid: Int
    let amountRemaining: Int
    let amountShipping: Int
    let attemptCount: Int
    let attempted: Bool
    let autoAdvance: Bool?
    let automaticTax: AutomaticTax
    let billingReason: String?
    let collectionMethod: String
    let created: Int
    let currency: String
    let customer: String?
    let customerAddress: Address?
    let customerEmail: String?
    let customerName: String?
    let customerTaxExempt: String?
    let defaultTaxRates: [String]
    let description: String?
    let dueDate: Int?
    let effectiveAt: Int?
    let endingBalance: Int?
    let hostedInvoiceUrl: String?
    let id: String
    let lines: Lines
    let livemode: Bool
    let metadata: [String: String]
    let nextPaymentAttempt: Int?
    let number: String?
    let object: String
    let periodEnd: Int
    let periodStart: Int
    let postPaymentCreditNotesAmount: Int
    let prePaymentCreditNotesAmount: Int
    let shippingCost: ShippingCost?
    let startingBalance: Int
    let status: String?
    let statusTransitions: StatusTransitions
    let subtotal: Int
    let subtotalExcludingTax: Int?
    let total: Int
    let totalExcludingTax: Int?
    let webhooksDeliveredAt: Int?
    let amountOverpaid: Int?
}
