import ModelKitCore

/// One `@Model` declaration to write: its name, kind, key strategy and properties.
struct ModelPlan: Equatable {
    /// One stored property and the remote key it maps.
    struct Property: Equatable {
        /// The property name.
        var name: String
        /// The JSON key the property maps.
        var key: String
        var type: InferredType
        /// Whether the declaration needs `@Key`: the key strategy does not give `key` from `name`.
        var needsKey: Bool
    }

    var name: String
    /// Whether the model is a class: it holds itself through plain or optional properties, which a
    /// struct cannot.
    var isClass: Bool
    /// Whether the model uses `@Model(keys: .snakeCase)`.
    var usesSnakeCase: Bool
    var properties: [Property]
    /// Keys that no property can map (empty keys), left out with a comment.
    var skippedKeys: [String]
    /// Where the payload holds these objects (`statuses[].user`), first one first.
    var paths: [String]
    /// The cases, when the declaration is the enum of a tagged union; nil for a struct or a class.
    var enumeration: EnumPlan? = nil
    /// The tag key and value of the objects this model describes, when it is the model of a
    /// union's case: its comment says so.
    var caseTag: CaseTag? = nil

    /// A tag key and the value it holds.
    struct CaseTag: Equatable {
        var key: String
        var value: String
    }

    /// The generated models the declaration refers to: its properties' and its cases'.
    var referencedModels: [String] {
        properties.compactMap(\.type.model) + (enumeration?.cases.map(\.model) ?? [])
    }

    /// The models the declaration holds directly, not in arrays or dictionaries: those of its
    /// plain and optional properties, or its cases' (an enum holds its payloads).
    var directModels: [String] {
        properties.compactMap(\.type.directModel) + (enumeration?.cases.map(\.model) ?? [])
    }
}

/// The cases of a `@Model(tag:)` enum: one per tag value, holding the model of that tag's objects,
/// and a fallback case for the tags the payload did not show.
struct EnumPlan: Equatable {
    /// One case: its name, the tag it maps and the model of its payload.
    struct Case: Equatable {
        var name: String
        var tag: String
        /// The model of the objects with this tag (`PushEvent`).
        var model: String
    }

    /// The key holding the tag.
    var tagKey: String
    var cases: [Case]

    /// The name of the fallback case, which keeps the objects of unknown tags as `JSONValue`.
    static let fallbackCase = "other"

    /// The cases of `union`, their models named by `modelName`: lowerCamelCase names from the
    /// tags (`PushEvent` -> `pushEvent`), renamed as properties are when a keyword or taken (the
    /// fallback case's name among them).
    init(union: TaggedUnion, modelName: (ObjectShape) -> String?) {
        tagKey = union.tagKey
        var taken: Set<String> = [Self.fallbackCase]
        cases = union.variants.compactMap { variant in
            guard let model = modelName(variant.shape) else { return nil }
            let type = InferredType(name: model, isOptional: false)
            let name = ModelPlan.propertyName(for: variant.tag, type: type, taken: taken)
            taken.insert(name)
            return Case(name: name, tag: variant.tag, model: model)
        }
    }
}

extension ModelPlan {
    /// The plan for a named object shape: property names from its keys, types from what was seen.
    init(name: String, shape: ObjectShape, inference: TypeInference) {
        var properties: [Property] = []
        var skipped: [String] = []
        var taken: Set<String> = []
        for key in shape.keys {
            guard let member = shape.members[key] else { continue }
            guard !key.isEmpty else {  // '@Key' rejects an empty key path segment
                skipped.append(key)
                continue
            }
            let type = inference.propertyType(member, key: key, samples: shape.samples)
            let propertyName = Self.propertyName(for: key, type: type, taken: taken)
            taken.insert(propertyName)
            properties.append(Property(name: propertyName, key: key, type: type, needsKey: false))
        }
        let snakeCase = KeyStrategy.snakeCase
        let plainMisses = properties.filter { $0.name != $0.key }.count
        let snakeMisses = properties.filter { snakeCase.key(for: $0.name) != $0.key }.count
        let usesSnakeCase = snakeMisses < plainMisses
        for index in properties.indices {
            let property = properties[index]
            let derived = usesSnakeCase ? snakeCase.key(for: property.name) : property.name
            properties[index].needsKey = derived != property.key
        }
        self.init(
            name: name, isClass: false, usesSnakeCase: usesSnakeCase, properties: properties, skippedKeys: skipped,
            paths: shape.paths)
    }

    /// A property name for `key` that no other property of the model has, that is not a keyword
    /// and that `@Model` does not use: `description` -> `descriptionText` (a string), `class` ->
    /// `classValue`, `hash` -> `hashField` (`hashValue` is `Hashable`'s), a second `userId` ->
    /// `userId2`.
    static func propertyName(for key: String, type: InferredType, taken: Set<String>) -> String {
        var name = SwiftNames.propertyName(for: key)
        if name.isEmpty { name = "field" }
        let isFree = { (candidate: String) in SwiftNames.isUsableProperty(candidate) && !taken.contains(candidate) }
        if isFree(name) { return name }
        if !SwiftNames.isUsableProperty(name) {
            let suffix = type.name == "String" ? "Text" : "Value"
            for candidate in [name + suffix, name + "Field"] where isFree(candidate) { return candidate }
        }
        var number = 2
        while !isFree("\(name)\(number)") { number += 1 }
        return "\(name)\(number)"
    }
}
