import Foundation

/// URLs as strings, optionally resolved against a base URL.
///
/// ```swift
/// @Transform(.url(relativeTo: URL(string: "https://example.com/")!)) var avatar: URL
/// ```
public struct URLTransformer: ModelTransformer {
    /// The URL relative strings are resolved against.
    public let base: URL?

    /// A transformer resolving against `base`, if given.
    public init(relativeTo base: URL? = nil) {
        self.base = base
    }

    public var expectation: String { "a URL" }

    public func transformedValue(_ text: String) throws -> URL {
        guard !text.isEmpty, let url = URL(string: text, relativeTo: base) else {
            throw ModelError.invalid(expected: expectation)
        }
        return base == nil ? url : url.absoluteURL
    }

    public func reverseTransformedValue(_ url: URL) throws -> String {
        url.absoluteString
    }
}

/// UUIDs as strings (`"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`, any letter case on input).
public struct UUIDTransformer: ModelTransformer {
    /// Whether output is lowercase (as many APIs write UUIDs) rather than Foundation's uppercase.
    public let lowercased: Bool

    /// A transformer writing uppercase, or lowercase with `lowercased`.
    public init(lowercased: Bool = false) {
        self.lowercased = lowercased
    }

    public var expectation: String { "a UUID" }

    public func transformedValue(_ text: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else { throw ModelError.invalid(expected: expectation) }
        return uuid
    }

    public func reverseTransformedValue(_ uuid: UUID) throws -> String {
        lowercased ? uuid.uuidString.lowercased() : uuid.uuidString
    }
}

/// Enumerations by raw value, with an optional case for raw values the enum doesn't know.
///
/// ```swift
/// enum Kind: String, Codable { case photo, video, unknown }
/// @Transform(.rawValue(Kind.self, default: .unknown)) var kind: Kind
/// ```
public struct RawValueTransformer<Value: RawRepresentable & Sendable>: ModelTransformer
where Value.RawValue: ModelValue & Sendable {
    /// The case used for unknown raw values; nil makes them an error.
    public let unknownCase: Value?

    /// A transformer for `type`, falling back to `unknownCase` when given.
    public init(_ type: Value.Type, default unknownCase: Value? = nil) {
        self.unknownCase = unknownCase
    }

    public var expectation: String { "one of the raw values of '\(Value.self)'" }

    public func transformedValue(_ raw: Value.RawValue) throws -> Value {
        if let value = Value(rawValue: raw) ?? unknownCase { return value }
        throw ModelError.invalid(expected: expectation)
    }

    public func reverseTransformedValue(_ value: Value) throws -> Value.RawValue {
        value.rawValue
    }
}

/// Numbers that may arrive as JSON numbers or as numeric strings (`42` or `"42"`); written as
/// numbers.
///
/// ```swift
/// @Transform(.lenient(Int.self)) var followers: Int
/// ```
public struct LenientNumberTransformer<Value: LosslessStringConvertible & ModelValue & Sendable>: ModelTransformer {
    /// A transformer for `type`.
    public init(_ type: Value.Type) {}

    public var expectation: String { "a number or a numeric string" }

    public func transformedValue(_ json: JSONValue) throws -> Value {
        let text: String
        switch json {
        case .string(let string): text = string.trimmingCharacters(in: .whitespaces)
        case .int(let value): text = String(value)
        case .uint(let value): text = String(value)
        case .double(let value): text = Value.self == Double.self || Value.self == Float.self ? String(value) : ""
        case .decimal(let value): text = value.description
        default: text = ""
        }
        guard let value = Value(text) else { throw ModelError.invalid(expected: expectation) }
        return value
    }

    public func reverseTransformedValue(_ value: Value) throws -> JSONValue {
        var writer = JSONValueWriter()
        try value.write(to: &writer)
        return writer.value
    }
}

/// Strings that may arrive as numbers or booleans (`42` becomes `"42"`); written as strings.
public struct LenientStringTransformer: ModelTransformer {
    public init() {}

    public var expectation: String { "a string, number or boolean" }

    public func transformedValue(_ json: JSONValue) throws -> String {
        switch json {
        case .string(let string): return string
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .double(let value): return String(value)
        case .decimal(let value): return value.description
        case .bool(let value): return value ? "true" : "false"
        default: throw ModelError.invalid(expected: expectation)
        }
    }

    public func reverseTransformedValue(_ value: String) throws -> JSONValue {
        .string(value)
    }
}

extension ModelTransformer where Self == URLTransformer {
    /// URLs as strings.
    public static var url: URLTransformer { URLTransformer() }

    /// URLs as strings, relative ones resolved against `base`.
    public static func url(relativeTo base: URL) -> URLTransformer { URLTransformer(relativeTo: base) }
}

extension ModelTransformer where Self == UUIDTransformer {
    /// UUIDs as uppercase strings.
    public static var uuid: UUIDTransformer { UUIDTransformer() }

    /// UUIDs as lowercase strings.
    public static var lowercaseUUID: UUIDTransformer { UUIDTransformer(lowercased: true) }
}

extension ModelTransformer {
    /// Enumerations by raw value, unknown raw values mapped to `unknownCase` when given.
    public static func rawValue<E>(_ type: E.Type, default unknownCase: E? = nil) -> RawValueTransformer<E>
    where Self == RawValueTransformer<E> {
        RawValueTransformer(type, default: unknownCase)
    }

    /// Numbers as JSON numbers or numeric strings.
    public static func lenient<N>(_ type: N.Type) -> LenientNumberTransformer<N>
    where Self == LenientNumberTransformer<N> {
        LenientNumberTransformer(type)
    }
}

extension ModelTransformer where Self == LenientStringTransformer {
    /// Strings as strings, numbers or booleans.
    public static var lenientString: LenientStringTransformer { LenientStringTransformer() }
}
