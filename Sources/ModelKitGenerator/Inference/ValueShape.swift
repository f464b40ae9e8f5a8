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

extension ValueShape {
    /// Renames the paths of the objects inside, as ``ObjectShape/renamePaths(prefixes:to:seen:)``
    /// does: the objects inside a dictionary's values are at `parent.*`, not under each key.
    func renamePaths(prefixes: Set<String>, to replacement: String, seen: inout Set<ObjectIdentifier>) {
        element?.renamePaths(prefixes: prefixes, to: replacement, seen: &seen)
        object?.renamePaths(prefixes: prefixes, to: replacement, seen: &seen)
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
