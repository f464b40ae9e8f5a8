import Foundation

/// Moves values that are only `Codable` (not ``ModelValue``) in and out of JSON objects, through
/// Foundation's JSON coders with ModelKit's date and data conventions.
package enum CodableBridge {
    /// Decodes `T` from a JSON object-model value.
    package static func decode<T: Decodable>(_ type: T.Type, fromFoundationObject value: Any) throws -> T {
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        } catch {
            throw ModelError(.typeMismatch, expected: "a JSON value", found: ModelError.describe(value))
        }
        return try decode(T.self, fromJSON: data, found: { ModelError.describe(value) })
    }

    /// Decodes `T` from JSON bytes, describing the input as `found` in errors.
    package static func decode<T: Decodable>(_ type: T.Type, fromJSON data: Data, found: () -> String) throws -> T {
        do {
            return try makeDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw ModelError(
                .typeMismatch, expected: "a value '\(T.self)' can decode", found: found(), underlying: error)
        }
    }

    /// Decodes `T` from a JSON value.
    package static func decode<T: Decodable>(_ type: T.Type, fromJSONValue value: JSONValue) throws -> T {
        if let value = value as? T { return value }
        let data: Data
        do {
            data = try makeEncoder().encode(value)
        } catch {
            throw ModelError(.typeMismatch, expected: "a JSON value", found: ModelError.describe(value))
        }
        return try decode(T.self, fromJSON: data, found: { ModelError.describe(value) })
    }

    /// Encodes `value` as a JSON value.
    package static func jsonValue<T: Encodable>(encoding value: T) throws -> JSONValue {
        if let value = value as? JSONValue { return value }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: try encode(value))
        } catch let error as DecodingError {
            throw ModelError(.invalidValue, expected: "a value JSON can hold", underlying: error)
        }
    }

    /// Encodes `value` to a JSON object-model value.
    package static func foundationObject<T: Encodable>(encoding value: T) throws -> Any {
        try JSONSerialization.jsonObject(with: try encode(value), options: [.fragmentsAllowed])
    }

    /// Encodes `value` to JSON bytes.
    package static func encode<T: Encodable>(_ value: T) throws -> Data {
        do {
            return try makeEncoder().encode(value)
        } catch let error as EncodingError {
            throw ModelError(.invalidValue, expected: "a value JSON can hold", underlying: error)
        }
    }

    private static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = DateCoding.parseISO8601(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "expected an ISO 8601 date string"))
            }
            return date
        }
        return decoder
    }

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(DateCoding.formatISO8601(date))
        }
        return encoder
    }
}
