import ModelKitCore

/// What the values found at one place of a payload have in common: how many of each JSON kind,
/// the range of the integers, how many strings read as dates, and, merged, the elements of the
/// arrays and the members of the objects found there.
///
/// Shapes are classes because naming merges the objects of one type found at several places
/// into one ``ObjectShape`` that every place then refers to.
///
/// ```swift
/// let shape = ValueShape()
/// shape.observe(.int(3), path: "count")
/// shape.observe(.double(2.5), path: "count")
/// shape.numbers // 2; the property becomes a Double
/// ```
final class ValueShape {
    /// Every value seen, nulls included.
    private(set) var count = 0
    private(set) var nulls = 0
    private(set) var bools = 0
    /// Integers that fit `Int64`.
    private(set) var ints = 0
    private(set) var intMin = Int64.max
    private(set) var intMax = Int64.min
    /// Integers above `Int64.max`.
    private(set) var uints = 0
    /// Fractions, exponents and decimals.
    private(set) var doubles = 0
    private(set) var strings = 0
    /// Strings that are ISO 8601 internet date-times.
    private(set) var isoDates = 0
    /// Strings in Twitter's date format.
    private(set) var twitterDates = 0
    private(set) var arrays = 0
    /// The elements of every array seen here, merged.
    private(set) var element: ValueShape?
    private(set) var objects = 0
    /// The members of every object seen here, merged.
    private(set) var object: ObjectShape?

    /// Values that are not null.
    var present: Int { count - nulls }

    /// Numbers of every kind.
    var numbers: Int { ints + uints + doubles }

    /// Records one value and, for containers, everything inside it; `path` names the place in
    /// the payload for the types' comments.
    func observe(_ value: JSONValue, path: String) {
        count += 1
        switch value {
        case .null: nulls += 1
        case .bool: bools += 1
        case .int(let number):
            ints += 1
            intMin = min(intMin, number)
            intMax = max(intMax, number)
        case .uint: uints += 1
        case .double, .decimal: doubles += 1
        case .string(let text):
            strings += 1
            if DatePatterns.isISO8601(text) { isoDates += 1 }
            if DatePatterns.isTwitterDate(text) { twitterDates += 1 }
        case .array(let elements):
            arrays += 1
            let shape = element ?? ValueShape()
            element = shape
            for item in elements { shape.observe(item, path: path + "[]") }
        case .object(let members):
            objects += 1
            let shape = object ?? ObjectShape(path: path)
            object = shape
            shape.observe(members, path: path)
        }
    }

    /// Adds everything `other` has seen to this shape, merging elements and objects.
    func absorb(_ other: ValueShape, merging: inout Set<MergePair>) {
        guard self !== other, merging.insert(MergePair(self, other)).inserted else { return }
        count += other.count
        nulls += other.nulls
        bools += other.bools
        ints += other.ints
        intMin = min(intMin, other.intMin)
        intMax = max(intMax, other.intMax)
        uints += other.uints
        doubles += other.doubles
        strings += other.strings
        isoDates += other.isoDates
        twitterDates += other.twitterDates
        arrays += other.arrays
        objects += other.objects
        if let otherElement = other.element {
            if let element { element.absorb(otherElement, merging: &merging) } else { element = otherElement }
        }
        if let otherObject = other.object {
            if let object { object.absorb(otherObject, merging: &merging) } else { object = otherObject }
        }
    }
}

/// The members of the objects seen at one or more places, keys in the order they first appeared.
final class ObjectShape {
    /// The keys, in order of first appearance.
    private(set) var keys: [String] = []
    /// What each key held, in the objects that have it.
    private(set) var members: [String: ValueShape] = [:]
    /// How many objects were seen.
    private(set) var samples = 0
    /// The places in the payload these objects came from (`statuses[].user`), first one first.
    private(set) var paths: [String]

    init(path: String) {
        paths = [path]
    }

    /// Records the members of one object. A key repeated in the object counts once, with its
    /// last value, as lookups read it.
    func observe(_ objectMembers: [JSONMember], path: String) {
        samples += 1
        var last: [String: JSONValue] = [:]
        var order: [String] = []
        for member in objectMembers {
            if last.updateValue(member.value, forKey: member.key) == nil { order.append(member.key) }
        }
        for key in order {
            guard let value = last[key] else { continue }
            shape(for: key).observe(value, path: path.isEmpty ? key : "\(path).\(key)")
        }
    }

    /// Adds the objects `other` has seen: a key missing from either side is then missing from
    /// some samples.
    func absorb(_ other: ObjectShape, merging: inout Set<MergePair>) {
        guard self !== other, merging.insert(MergePair(self, other)).inserted else { return }
        samples += other.samples
        for path in other.paths where !paths.contains(path) { paths.append(path) }
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

/// Two shapes being merged, so that a merge that meets the same pair again stops there.
struct MergePair: Hashable {
    let target: ObjectIdentifier
    let source: ObjectIdentifier

    init(_ target: AnyObject, _ source: AnyObject) {
        self.target = ObjectIdentifier(target)
        self.source = ObjectIdentifier(source)
    }
}
