/// Gives every object shape of a payload a model type, merging objects found under the same name.
///
/// The walk goes through the payload's shape from the root, members in order of first
/// appearance. An object under a key gets the key's type name (`user` -> `User`, the elements of
/// `statuses` -> `Status`). When a model of that name exists and shares at least half of its keys
/// with the object, the object is merged into it (a key one side lacks becomes optional);
/// otherwise the object gets a numbered name (`User2`). Names the generated code needs for itself
/// (`Date`, `Key`, ...) get `Object` added (`DateObject`).
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
        types.append(NamedType(name: rootName, baseName: rootName, shape: root))
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

    /// Walks the members of a named object.
    private mutating func walk(_ shape: ObjectShape) {
        guard visited.insert(ObjectIdentifier(shape)).inserted else { return }
        for key in shape.keys {
            guard let member = shape.members[key] else { continue }
            walkValue(member, key: key, singular: false)
        }
    }

    private mutating func walkValue(_ shape: ValueShape, key: String, singular: Bool) {
        switch shape.kind {
        case .object:
            guard let object = shape.object else { return }
            if typeIndex[ObjectIdentifier(object)] == nil {
                assign(object, baseName: baseName(for: key, singular: singular))
            }
            if let index = typeIndex[ObjectIdentifier(object)] { walk(types[index].shape) }
        case .array:
            if let element = shape.element { walkValue(element, key: key, singular: true) }
        default: return
        }
    }

    /// Merges `object` into a like model of the same base name, or names a new one.
    private mutating func assign(_ object: ObjectShape, baseName: String) {
        changed = true
        let id = ObjectIdentifier(object)
        if let index = types.indices.first(where: {
            types[$0].baseName == baseName && types[$0].shape.similarity(to: object) >= Self.mergeThreshold
        }) {
            var merging: Set<MergePair> = []
            types[index].shape.absorb(object, merging: &merging)
            typeIndex[id] = index
            return
        }
        typeIndex[id] = types.count
        types.append(NamedType(name: uniqueName(baseName), baseName: baseName, shape: object))
    }

    /// The type name for an object under `key`, before numbering.
    private func baseName(for key: String, singular: Bool) -> String {
        var name = SwiftNames.typeName(for: key, singular: singular)
        if name.isEmpty { name = singular ? "Item" : "Object" }
        if !SwiftNames.isUsableType(name) { name += "Object" }
        return name
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
