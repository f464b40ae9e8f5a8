/// Objects told apart by a tag, one group per tag value: a `@Model(tag:)` enum with a case per
/// group, each case holding a model of the group's own members (the tag left out).
final class TaggedUnion {
    /// One tag value and the objects that carry it.
    struct Variant {
        /// The tag value, as the payload has it (`"PushEvent"`).
        let tag: String
        /// The members of the objects with this tag, without the tag key.
        let shape: ObjectShape
    }

    /// The key holding the tag (`type`).
    let tagKey: String
    /// The groups, in order of first appearance.
    let variants: [Variant]
    /// The keys whose objects differ between the groups (GitHub events' `payload`): their models
    /// are named after the group (`PushEventPayload`) rather than merged under one name.
    let distinctKeys: Set<String>

    init(tagKey: String, variants: [Variant], distinctKeys: Set<String>) {
        self.tagKey = tagKey
        self.variants = variants
        self.distinctKeys = distinctKeys
    }
}

/// The rules that take the elements of an array, the values of a dictionary or the samples at the
/// top level for a tagged union rather than one model.
///
/// Every object there must carry one of the ``tagKeys`` (the first of them that fits, in that
/// order) with a string, and the string must take between 2 and ``maxCases`` values, each of which
/// gives a Swift name. The objects are grouped by it; the groups make a union when they are not
/// alike: two groups share less than ``TypeNamer/mergeThreshold`` of their keys, or a key holds
/// objects (or arrays of objects) in two groups that share less than that of theirs. Groups that
/// are alike stay one model, the tag a `String` property as any other.
///
/// ```swift
/// // [{"type": "PushEvent", "payload": {"commits": [...]}}, {"type": "WatchEvent", "payload": {"action": "started"}}]
/// // @Model(tag: "type") enum Event { @Key("PushEvent") case pushEvent(PushEvent) ... }
/// ```
enum TagDetection {
    /// The keys that name an object's kind, in the order they are tried.
    static let tagKeys = [
        "type", "kind", "_type", "@type", "$type", "__typename", "event", "event_type", "eventType", "object",
    ]

    /// The most tag values a union takes: beyond that the strings are more likely names or data
    /// than kinds.
    static let maxCases = 50

    /// The union the objects of `object` form, or nil when they stay one model.
    static func union(of object: ObjectShape) -> TaggedUnion? {
        for tagKey in tagKeys {
            guard let samples = object.taggedSamples[tagKey], samples.count == object.samples,
                (2...maxCases).contains(samples.tags.count),
                samples.tags.allSatisfy({ !SwiftNames.propertyName(for: $0).isEmpty })
            else { continue }
            let variants = samples.tags.map { tag in
                let path = variantPath(object.paths[0], tagKey: tagKey, tag: tag)
                let shape = ObjectShape(path: path)
                for sample in samples.groups[tag] ?? [] { shape.observe(sample, path: path, leaving: tagKey) }
                return TaggedUnion.Variant(tag: tag, shape: shape)
            }
            let distinct = distinctKeys(of: variants)
            guard !distinct.isEmpty || haveUnlikeKeys(variants) else { continue }
            sharePaths(of: variants, except: distinct, at: object.paths[0])
            return TaggedUnion(tagKey: tagKey, variants: variants, distinctKeys: distinct)
        }
        return nil
    }

    /// Where the objects of one tag are, for the comments of the models inside them: the
    /// elements of `events[]` whose `type` is `PushEvent` are at `events[type=PushEvent]`.
    static func variantPath(_ path: String, tagKey: String, tag: String) -> String {
        let filter = "[\(tagKey)=\(tag)]"
        return path.hasSuffix("[]") ? path.dropLast(2) + filter : path + filter
    }

    /// Gives the objects under keys alike in every group (`actor`) the union's path again
    /// (`[].actor`): only those under distinct keys are told apart by their tag.
    private static func sharePaths(of variants: [TaggedUnion.Variant], except distinct: Set<String>, at path: String) {
        for variant in variants {
            guard let variantPath = variant.shape.paths.first else { continue }
            for key in variant.shape.keys where !distinct.contains(key) {
                guard let member = variant.shape.members[key] else { continue }
                var seen: Set<ObjectIdentifier> = []
                member.renamePaths(
                    prefixes: ["\(variantPath).\(key)"], to: path.isEmpty ? key : "\(path).\(key)", seen: &seen)
            }
        }
    }

    /// Whether two groups share too few keys to be one model.
    private static func haveUnlikeKeys(_ variants: [TaggedUnion.Variant]) -> Bool {
        for (index, variant) in variants.enumerated() {
            for other in variants[(index + 1)...]
            where variant.shape.similarity(to: other.shape) < TypeNamer.mergeThreshold {
                return true
            }
        }
        return false
    }

    /// The keys that hold objects, or arrays of objects, in two groups that share too few keys
    /// to be one model.
    private static func distinctKeys(of variants: [TaggedUnion.Variant]) -> Set<String> {
        var distinct: Set<String> = []
        var objectsByKey: [String: [ObjectShape]] = [:]
        for variant in variants {
            for key in variant.shape.keys {
                guard let member = variant.shape.members[key], let object = nestedObject(member) else { continue }
                objectsByKey[key, default: []].append(object)
            }
        }
        for (key, objects) in objectsByKey {
            let unlike = objects.indices.contains { index in
                objects[(index + 1)...].contains { objects[index].similarity(to: $0) < TypeNamer.mergeThreshold }
            }
            if unlike { distinct.insert(key) }
        }
        return distinct
    }

    /// The objects a member holds, directly or as the elements of arrays.
    private static func nestedObject(_ shape: ValueShape) -> ObjectShape? {
        switch shape.kind {
        case .object: return shape.object
        case .array: return shape.element?.kind == .object ? shape.element?.object : nil
        default: return nil
        }
    }
}

/// The decisions taken once every sample was observed, walking the shapes from the root: which
/// objects are dictionaries (``DictionaryDetection``) and which collections of objects are tagged
/// unions (``TagDetection``), deciding inner places after the merge of the outer ones.
enum ShapeRefinement {
    /// Refines the objects at the top level: they are a model or, over several samples or the
    /// elements of a top-level array, a union; never a dictionary, since the root is a model.
    static func refineRoot(_ root: ObjectShape) {
        refineObjects(root, isCollection: true)
    }

    /// Refines the values at one place; `isCollection` when they are the elements of arrays or
    /// the values of a dictionary, where objects of several kinds meet.
    static func refine(_ shape: ValueShape, isCollection: Bool) {
        if let element = shape.element { refine(element, isCollection: true) }
        guard let object = shape.object, !object.keys.isEmpty else { return }
        if DictionaryDetection.isDictionary(object) {
            object.makeDictionary()
            if let values = object.dictionaryValues { refine(values, isCollection: true) }
            return
        }
        refineObjects(object, isCollection: isCollection)
    }

    /// Takes a collection's objects for a union when their groups differ, then refines the
    /// members of the union's groups, or of the objects.
    private static func refineObjects(_ object: ObjectShape, isCollection: Bool) {
        if isCollection, let union = TagDetection.union(of: object) {
            object.union = union
            for variant in union.variants { refineMembers(of: variant.shape) }
        } else {
            refineMembers(of: object)
        }
    }

    private static func refineMembers(of object: ObjectShape) {
        for key in object.keys {
            if let member = object.members[key] { refine(member, isCollection: false) }
        }
    }
}
