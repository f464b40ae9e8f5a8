import Foundation
import ModelKitCore
import ModelKitPropertyList

/// Prints any keyed archive: as an indented tree (class names, keys, values, shared references
/// marked) or as JSON. What `modelkit archive dump` prints.
///
/// Both walk the archive without recursion, so any depth prints; an object reached a second
/// time (a shared reference, or a cycle) is printed as a reference to its object number.
///
/// ```swift
/// let document = try KeyedArchiveDocument(data: data)
/// print(try ArchiveDump.text(document))
/// // root: NSArray #1 (4 elements)
/// //   [0]: "baa"
/// //   ...
/// print(try ArchiveDump.json(document))
/// // {"root": ["baa", "baa", "black", "sheep"]}
/// ```
public enum ArchiveDump {
    /// The archive as an indented tree, one value per line.
    public static func text(_ document: KeyedArchiveDocument) throws -> String {
        var renderer = TextDumpRenderer()
        var walker = DumpWalker(document: document)
        try walker.walk(into: &renderer)
        return renderer.output
    }

    /// The archive as JSON: objects as `{"$class": name, key: value, ...}`, a second reference to
    /// an object as `{"$ref": n}`, arrays, dictionaries and strings in their natural form, data as
    /// base64, `$null` and `NSNull` as `null`.
    public static func json(_ document: KeyedArchiveDocument) throws -> String {
        var renderer = JSONDumpRenderer()
        var walker = DumpWalker(document: document)
        try walker.walk(into: &renderer)
        return renderer.output
    }
}

/// Where a value sits in its container.
enum DumpLabel {
    case none
    case key(String)
    case index(Int)
}

/// What a container is, as it opens.
enum DumpContainer {
    /// `$top`.
    case top
    /// An object of a class that is printed by its keys.
    case object(className: String, uid: Int, shared: Bool)
    /// A Foundation collection (array, set, ordered set) printed as a list, or an inline array.
    case list(className: String?, uid: Int?, count: Int, shared: Bool)
    /// A Foundation dictionary, or an inline dictionary.
    case dictionary(className: String?, uid: Int?, count: Int, shared: Bool)
}

/// Receives the walk of an archive.
protocol DumpRenderer {
    mutating func scalar(_ label: DumpLabel, _ value: PropertyListValue, depth: Int)
    mutating func null(_ label: DumpLabel, depth: Int)
    mutating func reference(_ label: DumpLabel, uid: Int, className: String, depth: Int)
    mutating func open(_ label: DumpLabel, _ container: DumpContainer, depth: Int)
    mutating func close(_ container: DumpContainer, depth: Int)
}

/// Walks an archive depth-first with an explicit stack, in document order.
struct DumpWalker {
    let document: KeyedArchiveDocument
    /// How often each object is referenced, to mark shared ones.
    private var referenceCounts: [Int: Int] = [:]
    private var visited = Set<Int>()

    private struct Frame {
        let container: DumpContainer
        let children: [(DumpLabel, PropertyListValue)]
        var next = 0
    }

    init(document: KeyedArchiveDocument) {
        self.document = document
        var counts: [Int: Int] = [:]
        var pending: [PropertyListValue] = document.top.values
        for object in document.objects {
            if case .dictionary(let keys) = object {
                for (key, value) in keys where key != "$class" { pending.append(value) }
            }
        }
        while let value = pending.popLast() {
            switch value {
            case .uid(let reference): counts[Int(truncatingIfNeeded: reference), default: 0] += 1
            case .array(let elements): pending.append(contentsOf: elements)
            case .dictionary(let keys): pending.append(contentsOf: keys.values)
            default: break
            }
        }
        referenceCounts = counts
    }

    mutating func walk<R: DumpRenderer>(into renderer: inout R) throws {
        var stack: [Frame] = []
        let topChildren = document.top.map { (DumpLabel.key(KeyedArchiver.unescapeKey($0.key)), $0.value) }
        renderer.open(.none, .top, depth: 0)
        stack.append(Frame(container: .top, children: topChildren))
        while !stack.isEmpty {
            let last = stack.count - 1
            guard stack[last].next < stack[last].children.count else {
                let frame = stack.removeLast()
                renderer.close(frame.container, depth: stack.count)
                continue
            }
            let (label, value) = stack[last].children[stack[last].next]
            stack[last].next += 1
            if let frame = visit(label, value, depth: stack.count, into: &renderer) {
                stack.append(frame)
            }
        }
    }

    /// Renders a leaf, or opens a container and returns its frame.
    private mutating func visit<R: DumpRenderer>(_ label: DumpLabel, _ value: PropertyListValue, depth: Int, into renderer: inout R)
        -> Frame?
    {
        switch value {
        case .uid(let reference):
            return visitObject(label, Int(truncatingIfNeeded: reference), depth: depth, into: &renderer)
        case .array(let elements):
            let container = DumpContainer.list(className: nil, uid: nil, count: elements.count, shared: false)
            renderer.open(label, container, depth: depth)
            return Frame(container: container, children: elements.enumerated().map { (.index($0.offset), $0.element) })
        case .dictionary(let keys):
            let container = DumpContainer.dictionary(className: nil, uid: nil, count: keys.count, shared: false)
            renderer.open(label, container, depth: depth)
            return Frame(container: container, children: keys.map { (.key($0.key), $0.value) })
        case .null:
            renderer.null(label, depth: depth)
            return nil
        default:
            renderer.scalar(label, value, depth: depth)
            return nil
        }
    }

    private mutating func visitObject<R: DumpRenderer>(_ label: DumpLabel, _ uid: Int, depth: Int, into renderer: inout R)
        -> Frame?
    {
        switch document.entry(uid) {
        case .null:
            renderer.null(label, depth: depth)
            return nil
        case .value(let value):
            renderer.scalar(label, value, depth: depth)
            return nil
        case .classDescription(let archivedClass):
            renderer.scalar(label, .string("<class description \(archivedClass.name)>"), depth: depth)
            return nil
        case .object(let archivedClass, let keys):
            let kind = FoundationClass(chain: archivedClass.chain)
            if kind == .null {
                renderer.null(label, depth: depth)
                return nil
            }
            if kind == .string || kind == .mutableString, case .string(let text)? = resolvedPlain(keys["NS.string"]) {
                renderer.scalar(label, .string(text), depth: depth)
                return nil
            }
            if visited.contains(uid) {
                renderer.reference(label, uid: uid, className: archivedClass.name, depth: depth)
                return nil
            }
            visited.insert(uid)
            let shared = (referenceCounts[uid] ?? 0) > 1
            // A counted set prints by its keys (`NS.object<i>`, `NS.count<i>`): as a list it
            // would repeat each member as often as counted, up to 2^63 times for a few bytes.
            if let kind, kind.isArray || kind.isSet || kind.isOrderedSet, kind != .countedSet,
               case .success(let elements) = FoundationCollections.elements(of: keys, kind: kind)
            {
                let container = DumpContainer.list(className: archivedClass.name, uid: uid, count: elements.count, shared: shared)
                renderer.open(label, container, depth: depth)
                return Frame(container: container, children: elements.enumerated().map { (.index($0.offset), $0.element) })
            }
            if let kind, kind.isDictionary, case .success(let entries) = FoundationCollections.entries(of: keys) {
                let container = DumpContainer.dictionary(
                    className: archivedClass.name, uid: uid, count: entries.keys.count, shared: shared)
                renderer.open(label, container, depth: depth)
                let children = zip(entries.keys, entries.values).map { (DumpLabel.key(keyText($0.0)), $0.1) }
                return Frame(container: container, children: children)
            }
            let container = DumpContainer.object(className: archivedClass.name, uid: uid, shared: shared)
            renderer.open(label, container, depth: depth)
            let children = keys.filter { $0.key != "$class" }.map { (DumpLabel.key(KeyedArchiver.unescapeKey($0.key)), $0.value) }
            return Frame(container: container, children: children)
        }
    }

    /// A plain value, following one reference.
    private func resolvedPlain(_ value: PropertyListValue?) -> PropertyListValue? {
        guard let value else { return nil }
        if case .uid(let reference) = value, case .value(let plain) = document.entry(Int(truncatingIfNeeded: reference)) {
            return plain
        }
        return value
    }

    /// A dictionary key as text: the string itself, or a description of another value.
    private func keyText(_ reference: PropertyListValue) -> String {
        switch resolvedPlain(reference) {
        case .string(let text)?: return text
        case .integer(let integer)?: return "\(integer)"
        case .real(let real)?: return "\(real.doubleValue)"
        case .bool(let flag)?: return flag ? "true" : "false"
        default:
            if case .uid(let uid) = reference, let archivedClass = document.archivedClass(of: Int(truncatingIfNeeded: uid)) {
                return "<\(archivedClass.name) #\(uid)>"
            }
            return "<key>"
        }
    }
}
