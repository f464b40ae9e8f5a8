/// The kind of value a place in a payload holds once nulls are set aside.
enum ValueKind: Equatable {
    /// Only nulls were seen (or nothing, for the elements of arrays that were always empty).
    case none
    case bool
    case number
    case string
    case array
    /// Objects with at least one key; objects that were always empty count as ``mixed``, since no
    /// model can describe their members.
    case object
    /// More than one kind: the property keeps the value as a `JSONValue`.
    case mixed
}

extension ValueShape {
    /// The one kind of the non-null values seen here.
    var kind: ValueKind {
        let counts: [(Int, ValueKind)] = [
            (bools, .bool), (numbers, .number), (strings, .string), (arrays, .array), (objects, .object),
        ]
        let seen = counts.filter { $0.0 > 0 }
        guard let only = seen.first else { return .none }
        guard seen.count == 1 else { return .mixed }
        if only.1 == .object, object?.keys.isEmpty ?? true { return .mixed }
        return only.1
    }
}

/// The Swift type the generator writes for a property, with its transformer.
///
/// ```swift
/// InferredType(name: "Date", transform: ".iso8601", isOptional: true).spelled  // "Date?"
/// ```
struct InferredType: Equatable {
    /// The type without the optional mark: `Int`, `[Status]`, `JSONValue`.
    var name: String
    /// The `@Transform` argument, for dates.
    var transform: String?
    /// Whether the property is optional: some objects lack the key or hold null.
    var isOptional: Bool
    /// The generated model the property holds directly (not inside an array), which makes the
    /// two types depend on each other's size.
    var directModel: String?
    /// The generated model the property holds, directly or inside arrays.
    var model: String?

    /// The type as written in the declaration.
    var spelled: String { isOptional ? name + "?" : name }
}

/// The rules that turn what was seen at a place of the payload into a Swift type.
///
/// - null everywhere: `JSONValue?`; booleans: `Bool`; strings: `String`, or `Date` when every
///   string is an ISO 8601 date-time (`.iso8601`) or a Twitter date (`.dateFormat(...)`);
/// - integers: `Int` when all fit 32 bits, else `Int64`; integers above `Int64.max`: `UInt64`
///   (`Double` if negative ones were seen too); any fraction: `Double`; integers under a key that
///   names a time, all in the years 2000-2100 as seconds or milliseconds since 1970: `Date`
///   (`.secondsSince1970`, `.millisecondsSince1970`);
/// - objects: the generated model, or the enum of a tagged union (``TagDetection``); objects taken
///   for dictionaries (``DictionaryDetection``): `[String: T]` of their merged values' type;
///   arrays: an array of the merged elements' type, `[JSONValue]` for arrays that were always
///   empty; optional elements or values when some are null;
/// - anything else (several kinds, or objects that were always empty): `JSONValue`.
///
/// A property is optional when some objects lack its key or hold null there.
struct TypeInference {
    /// The name of the model generated for an object shape.
    let modelName: (ObjectShape) -> String?

    /// The type of the property for `key`, whose values are `shape`, in objects seen `samples` times.
    func propertyType(_ shape: ValueShape, key: String, samples: Int) -> InferredType {
        var type = valueType(shape, key: key, allowsDates: true)
        type.isOptional = shape.count < samples || shape.nulls > 0 || type.isOptional
        return type
    }

    /// The type of the values of `shape`; dates only at the top of a property, since a
    /// transformer applies to the whole property.
    func valueType(_ shape: ValueShape, key: String, allowsDates: Bool) -> InferredType {
        switch shape.kind {
        case .none: return InferredType(name: "JSONValue", isOptional: true)
        case .bool: return InferredType(name: "Bool", isOptional: false)
        case .number: return numberType(shape, key: key, allowsDates: allowsDates)
        case .string:
            guard allowsDates else { return InferredType(name: "String", isOptional: false) }
            if shape.isoDates == shape.strings {
                return InferredType(name: "Date", transform: ".iso8601", isOptional: false)
            }
            if shape.twitterDates == shape.strings {
                let format = SwiftSource.stringLiteral(DatePatterns.twitterFormat)
                return InferredType(name: "Date", transform: ".dateFormat(\(format))", isOptional: false)
            }
            return InferredType(name: "String", isOptional: false)
        case .array:
            guard let element = shape.element, element.count > 0 else {
                return InferredType(name: "[JSONValue]", isOptional: false)
            }
            let elementType = collectedType(element, key: key)
            return InferredType(name: "[\(elementType.spelled)]", isOptional: false, model: elementType.model)
        case .object:
            guard let object = shape.object else { return InferredType(name: "JSONValue", isOptional: false) }
            if let values = object.dictionaryValues {
                guard values.count > 0 else { return InferredType(name: "[String: JSONValue]", isOptional: false) }
                let valueType = collectedType(values, key: key)
                return InferredType(name: "[String: \(valueType.spelled)]", isOptional: false, model: valueType.model)
            }
            guard let name = modelName(object) else { return InferredType(name: "JSONValue", isOptional: false) }
            return InferredType(name: name, isOptional: false, directModel: name, model: name)
        case .mixed: return InferredType(name: "JSONValue", isOptional: false)
        }
    }

    /// The type of the elements of arrays or the values of dictionaries, merged: optional when
    /// some are null, and never a date, since a transformer applies to the whole property.
    private func collectedType(_ shape: ValueShape, key: String) -> InferredType {
        var type = valueType(shape, key: key, allowsDates: false)
        type.isOptional = type.isOptional || shape.nulls > 0
        return type
    }

    private func numberType(_ shape: ValueShape, key: String, allowsDates: Bool) -> InferredType {
        if shape.doubles > 0 { return InferredType(name: "Double", isOptional: false) }
        if shape.uints > 0 {
            let negative = shape.ints > 0 && shape.intMin < 0
            return InferredType(name: negative ? "Double" : "UInt64", isOptional: false)
        }
        if allowsDates, let unit = DatePatterns.epochUnit(key: key, min: shape.intMin, max: shape.intMax) {
            let transform = unit == .seconds ? ".secondsSince1970" : ".millisecondsSince1970"
            return InferredType(name: "Date", transform: transform, isOptional: false)
        }
        let fits32 = shape.intMin >= Int64(Int32.min) && shape.intMax <= Int64(Int32.max)
        return InferredType(name: fits32 ? "Int" : "Int64", isOptional: false)
    }
}
