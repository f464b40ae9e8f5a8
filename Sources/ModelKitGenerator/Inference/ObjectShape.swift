import ModelKitCore

/// The members of the objects seen at one or more places, keys in the order they first appeared.
///
/// Besides the members, an object shape keeps what the refinements after observing need: the
/// objects that carry a tag-like key (``TagDetection`` groups them by its value), and, once decided,
/// the merged values of objects taken for dictionaries (``DictionaryDetection``) or the shapes of
/// the groups of a tagged union.
final class ObjectShape {
    /// The keys, in order of first appearance.
    private(set) var keys: [String] = []
    /// What each key held, in the objects that have it.
    private(set) var members: [String: ValueShape] = [:]
    /// How many objects were seen.
    private(set) var samples = 0
    /// The places in the payload these objects came from (`statuses[].user`), first one first.
    private(set) var paths: [String]
    /// `paths` as a set, so that merging the objects of many places stays linear.
    private var pathSet: Set<String>
    /// The objects seen with each tag-like key holding a string, by tag key.
    private(set) var taggedSamples: [String: TaggedSamples] = [:]
    /// The values of these objects, merged, once they were taken for dictionaries (`[String: T]`);
    /// nil for objects with fixed keys.
    private(set) var dictionaryValues: ValueShape?
    /// The groups of these objects by their tag, once they were taken for a tagged union (a
    /// `@Model` enum); nil otherwise.
    var union: TaggedUnion?

    init(path: String) {
        paths = [path]
        pathSet = [path]
    }

    /// Records the members of one object. A key repeated in the object counts once, with its
    /// last value, as lookups read it; `leaving` is a key left out (the tag of a union's case).
    func observe(_ objectMembers: [JSONMember], path: String, leaving omitted: String? = nil) {
        samples += 1
        var last: [String: JSONValue] = [:]
        var order: [String] = []
        for member in objectMembers where member.key != omitted {
            if last.updateValue(member.value, forKey: member.key) == nil { order.append(member.key) }
        }
        for key in order {
            guard let value = last[key] else { continue }
            shape(for: key).observe(value, path: path.isEmpty ? key : "\(path).\(key)")
        }
        for tagKey in TagDetection.tagKeys {
            guard case .string(let tag)? = last[tagKey] else { continue }
            taggedSamples[tagKey, default: TaggedSamples()].append(objectMembers, tag: tag)
        }
    }

    /// Adds the objects `other` has seen: a key missing from either side is then missing from
    /// some samples. Dictionaries stay dictionaries: the other side's members join their values.
    func absorb(_ other: ObjectShape, merging: inout Set<MergePair>) {
        guard self !== other, merging.insert(MergePair(self, other)).inserted else { return }
        samples += other.samples
        addPaths(other.paths)
        for (tagKey, theirs) in other.taggedSamples {
            taggedSamples[tagKey, default: TaggedSamples()].append(contentsOf: theirs)
        }
        if dictionaryValues == nil, other.dictionaryValues != nil { makeDictionary() }
        if let values = dictionaryValues {
            other.forEachValue { values.absorb($0, merging: &merging) }
            return
        }
        for key in other.keys {
            guard let theirs = other.members[key] else { continue }
            if let mine = members[key] {
                mine.absorb(theirs, merging: &merging)
            } else {
                keys.append(key)
                members[key] = theirs
            }
        }
    }

    /// Takes these objects for dictionaries: every member's values merge into one shape, as the
    /// elements of arrays do, and the objects inside them are now at `path.*`.
    func makeDictionary() {
        guard dictionaryValues == nil else { return }
        let values = ValueShape()
        var merging: Set<MergePair> = []
        forEachValue { values.absorb($0, merging: &merging) }
        dictionaryValues = values
        let base = paths[0]
        let prefixes = Set(keys.map { base.isEmpty ? $0 : "\(base).\($0)" })
        var seen: Set<ObjectIdentifier> = []
        values.renamePaths(prefixes: prefixes, to: base.isEmpty ? "*" : "\(base).*", seen: &seen)
    }

    /// Calls `body` with the shape of each member, or with the values of a dictionary.
    private func forEachValue(_ body: (ValueShape) -> Void) {
        if let dictionaryValues { return body(dictionaryValues) }
        for key in keys {
            if let member = members[key] { body(member) }
        }
    }

    /// Replaces paths that start with one of `prefixes` by `replacement` (and the rest of the
    /// path), here and in the objects inside, keeping the first appearance's order.
    func renamePaths(prefixes: Set<String>, to replacement: String, seen: inout Set<ObjectIdentifier>) {
        guard seen.insert(ObjectIdentifier(self)).inserted else { return }
        let renamed = paths.map { Self.renamed($0, prefixes: prefixes, to: replacement) }
        paths = []
        pathSet = []
        addPaths(renamed)
        for shape in members.values { shape.renamePaths(prefixes: prefixes, to: replacement, seen: &seen) }
        dictionaryValues?.renamePaths(prefixes: prefixes, to: replacement, seen: &seen)
    }

    /// `path` with its first matching prefix (ending at a `.` or `[`) replaced.
    private static func renamed(_ path: String, prefixes: Set<String>, to replacement: String) -> String {
        // The path's heads, longest first, looked up in the set: trying the prefixes one by one
        // would be quadratic over the keys.
        var end = path.endIndex
        while true {
            let head = String(path[..<end])
            if prefixes.contains(head) { return replacement + path[end...] }
            guard let separator = path[..<end].lastIndex(where: { $0 == "." || $0 == "[" }) else { return path }
            end = separator
        }
    }

    private func addPaths(_ newPaths: [String]) {
        for path in newPaths where pathSet.insert(path).inserted { paths.append(path) }
    }

    /// How alike two objects' keys are: the keys they share over all their keys (1 for equal
    /// key sets, 0 for disjoint ones).
    func similarity(to other: ObjectShape) -> Double {
        let mine = Set(keys)
        let theirs = Set(other.keys)
        let all = mine.union(theirs)
        return all.isEmpty ? 1 : Double(mine.intersection(theirs).count) / Double(all.count)
    }

    private func shape(for key: String) -> ValueShape {
        if let shape = members[key] { return shape }
        let shape = ValueShape()
        keys.append(key)
        members[key] = shape
        return shape
    }
}

/// The objects seen with one tag-like key holding a string, grouped by that string, each group
/// and the groups in order of first appearance. The objects are kept as they came (arrays of
/// members share their storage with the parsed payload) so that each group can be observed on its
/// own once the key is taken for a tag.
struct TaggedSamples {
    /// The tag values, in order of first appearance.
    private(set) var tags: [String] = []
    /// The objects of each tag value.
    private(set) var groups: [String: [[JSONMember]]] = [:]
    /// Objects seen with the key, over all tags.
    private(set) var count = 0

    /// Records one object whose tag is `tag`.
    mutating func append(_ object: [JSONMember], tag: String) {
        count += 1
        if groups[tag] == nil { tags.append(tag) }
        groups[tag, default: []].append(object)
    }

    /// Records the objects of `other` after these.
    mutating func append(contentsOf other: TaggedSamples) {
        for tag in other.tags {
            for object in other.groups[tag] ?? [] { append(object, tag: tag) }
        }
    }
}
