/// Gives every object shape of a payload a model type, merging objects found under the same name.
///
/// The walk goes through the payload's shape from the root, members in order of first
/// appearance. An object under a key gets the key's type name (`user` -> `User`, the elements of
/// `statuses` -> `Status`). When a model of that name exists and shares at least half of its keys
/// with the object, the object is merged into it (a key one side lacks becomes optional);
/// otherwise the object gets a numbered name (`User2`). Names the generated code needs for itself
/// (`Date`, `Key`, ...) get `Object` added (`DateObject`), and names that would start with a digit
/// get it in front (`Object3d`).
///
/// The values of a dictionary are named as the elements of an array (`events` -> `Event`). A
/// tagged union is named as an object would be, and the models of its cases after their tags
/// (`PushEvent`), each a model of its own; inside them, objects under a key whose objects differ
/// from case to case are named after the case (`PushEventPayload`), the others merge as usual.
///
/// ```swift
/// var namer = TypeNamer(rootName: "Root")
/// namer.name(root)
/// namer.types.map(\.name) // ["Root", "Status", "User", ...]
/// ```
struct TypeNamer {
    /// A named model and the merged objects it describes.
    struct NamedType {
        let name: String
        /// The name before numbering: objects merge only into a type with the same base name.
        let baseName: String
        let shape: ObjectShape
        /// Whether objects named later may merge into it: not an enum, nor the model of one of
        /// its cases, whose members are those of one tag only.
        let isMergeable: Bool
    }

    /// The keys two objects must share (over all their keys) to merge into one model.
    static let mergeThreshold = 0.5

    /// The models, in the order they were named.
    private(set) var types: [NamedType] = []
    /// The model index of every object shape seen.
    private var typeIndex: [ObjectIdentifier: Int] = [:]
    private let rootName: String
    /// Whether the current walk named or merged something, so another walk is needed.
    private var changed = false
    private var visited: Set<ObjectIdentifier> = []

    init(rootName: String) {
        self.rootName = rootName
    }

    /// Names the root shape and everything inside it.
    ///
    /// Merging an object into a model named earlier can add members the earlier walk did not see,
    /// so the walk repeats until it names nothing new; each walk only names objects that had no
    /// name, so this ends.
    mutating func name(_ root: ObjectShape) {
        typeIndex[ObjectIdentifier(root)] = 0
        types.append(NamedType(name: rootName, baseName: rootName, shape: root, isMergeable: root.union == nil))
        if let union = root.union { nameCases(of: union) }
        repeat {
            changed = false
            visited = []
            walk(root)
        } while changed
    }

    /// The model name of an object shape, when it has one.
    func modelName(of shape: ObjectShape) -> String? {
        typeIndex[ObjectIdentifier(shape)].map { types[$0].name }
    }

    /// Walks the members of a named object, or the cases of a union. In a case's model, the
    /// objects under the union's distinct keys are named after the case (`PushEventPayload`).
    private mutating func walk(_ shape: ObjectShape, caseName: String? = nil, distinctKeys: Set<String> = []) {
        guard visited.insert(ObjectIdentifier(shape)).inserted else { return }
        if let union = shape.union {
            for variant in union.variants {
                walk(variant.shape, caseName: modelName(of: variant.shape), distinctKeys: union.distinctKeys)
            }
            return
        }
        for key in shape.keys {
            guard let member = shape.members[key] else { continue }
            walkValue(member, key: key, singular: false, prefix: distinctKeys.contains(key) ? caseName : nil)
        }
    }

    /// Names the objects in the values at `key`: a dictionary's values are named as the elements
    /// of an array (`events` -> `Event`).
    private mutating func walkValue(_ shape: ValueShape, key: String, singular: Bool, prefix: String?) {
        switch shape.kind {
        case .object:
            guard let object = shape.object else { return }
            if let values = object.dictionaryValues {
                return walkValue(values, key: key, singular: true, prefix: prefix)
            }
            let id = ObjectIdentifier(object)
            if typeIndex[id] == nil {
                let name = baseName(for: key, singular: singular, prefix: prefix ?? "")
                if let union = object.union {
                    changed = true
                    typeIndex[id] = types.count
                    types.append(NamedType(name: uniqueName(name), baseName: name, shape: object, isMergeable: false))
                    nameCases(of: union)
                } else {
                    assign(object, baseName: name)
                }
            }
            if let index = typeIndex[id] { walk(types[index].shape) }
        case .array:
            if let element = shape.element { walkValue(element, key: key, singular: true, prefix: prefix) }
        default: return
        }
    }

    /// Names the models of a union's cases after their tags (`PushEvent`), each a model of its own.
    private mutating func nameCases(of union: TaggedUnion) {
        for variant in union.variants {
            let name = usableTypeName(SwiftNames.typeName(for: variant.tag, singular: false), fallback: "Object")
            typeIndex[ObjectIdentifier(variant.shape)] = types.count
            types.append(NamedType(name: uniqueName(name), baseName: name, shape: variant.shape, isMergeable: false))
        }
    }

    /// Merges `object` into a like model of the same base name, or names a new one.
    private mutating func assign(_ object: ObjectShape, baseName: String) {
        changed = true
        let id = ObjectIdentifier(object)
        if let index = types.indices.first(where: {
            types[$0].isMergeable && types[$0].baseName == baseName
                && types[$0].shape.similarity(to: object) >= Self.mergeThreshold
        }) {
            var merging: Set<MergePair> = []
            types[index].shape.absorb(object, merging: &merging)
            typeIndex[id] = index
            return
        }
        typeIndex[id] = types.count
        types.append(NamedType(name: uniqueName(baseName), baseName: baseName, shape: object, isMergeable: true))
    }

    /// The type name for an object under `key`, before numbering; `prefix` is the name of the
    /// case model it is in, for a key whose objects differ between cases.
    private func baseName(for key: String, singular: Bool, prefix: String) -> String {
        let name = SwiftNames.typeName(for: key, singular: singular)
        return usableTypeName(name.isEmpty ? "" : prefix + name, fallback: prefix + (singular ? "Item" : "Object"))
    }

    /// `name`, `fallback` when it is empty, `Object` added when it is a name the generated code
    /// needs (`DateObject`), and `fallback` in front of a leading digit's underscore (`Object3d`,
    /// not `_3d`, which would clash with the property of the same key).
    private func usableTypeName(_ name: String, fallback: String) -> String {
        if name.isEmpty { return fallback }
        if name.hasPrefix("_") { return fallback + name.dropFirst() }
        return SwiftNames.isUsableType(name) ? name : name + "Object"
    }

    /// `name`, or `name2`, `name3`, ... when a model already has it.
    private func uniqueName(_ name: String) -> String {
        let taken = Set(types.map(\.name))
        guard taken.contains(name) else { return name }
        var number = 2
        while taken.contains("\(name)\(number)") { number += 1 }
        return "\(name)\(number)"
    }
}
