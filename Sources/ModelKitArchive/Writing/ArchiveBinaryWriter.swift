import Foundation
import ModelKitPropertyList

/// Writes a finished keyed archive as a binary property list, knowing its shape: the root
/// dictionary, `$objects` (plain values and object dictionaries already written once each by the
/// archiver) and `$top`.
///
/// It gives the same objects as `PropertyListValue.binaryData()` would, with less work: keys
/// arrays that objects of one type share are numbered once, references (`CF$UID`) are uniqued by
/// their value through an array, numbers through small tables, and the `$objects` entries (which
/// the archiver already wrote once per distinct value) are not hashed again.
///
/// ```swift
/// let bytes = ArchiveBinaryWriter.write(objects: entries, top: top)
/// ```
struct ArchiveBinaryWriter {
    private var output = BinaryPropertyListOutput()
    /// The offset of each object; containers get theirs when they are written, last.
    private var offsets: [Int] = []
    private var containers: [(object: Int, isDictionary: Bool, start: Int, count: Int)] = []
    private var references: [Int] = []
    /// Keys, numbers and dates written once per distinct value; entries of `$objects` are already
    /// distinct.
    private var scalars = ScalarTable()
    private var keyArrays: [KeysIdentity: [Int]] = [:]
    private var uidObjects: [Int32]
    private var trueObject = -1
    private var falseObject = -1

    /// Identifies a keys array by its storage, valid while the archive is being written.
    private struct KeysIdentity: Hashable {
        let address: UInt
        let count: Int
    }

    private init(objectCount: Int) {
        uidObjects = [Int32](repeating: -1, count: objectCount)
    }

    /// The archive `$archiver`/`$objects`/`$top`/`$version` as binary property-list bytes.
    static func write(objects: [PropertyListValue], top: PropertyListDictionary) -> [UInt8] {
        var writer = ArchiveBinaryWriter(objectCount: objects.count)
        let root = writer.reserveContainer(count: 8, isDictionary: true)
        let rootKeys = ["$archiver", "$objects", "$top", "$version"].map { writer.addString($0) }
        let archiver = writer.addString(KeyedArchiveDocument.archiverName)
        let objectsArray = writer.reserveContainer(count: objects.count, isDictionary: false)
        for (index, entry) in objects.enumerated() {
            let object: Int
            switch entry {
            case .string(let string):
                object = writer.appendScalar(.string(string))
            case .dictionary(let dictionary):
                object = writer.addDictionary(dictionary)
            default:
                object = writer.add(entry)
            }
            writer.setReference(in: objectsArray, at: index, to: object)
        }
        let topDictionary = writer.addDictionary(top)
        let version = writer.add(.integer(PropertyListInteger(KeyedArchiveDocument.formatVersion)))
        for (index, child) in (rootKeys + [archiver, objectsArray.object, topDictionary, version]).enumerated() {
            writer.setReference(in: root, at: index, to: child)
        }
        return writer.finish()
    }

    // MARK: Numbering

    private struct Reserved {
        let object: Int
        let start: Int
    }

    /// Numbers a container now; its references are filled in with `setReference`.
    private mutating func reserveContainer(count: Int, isDictionary: Bool) -> Reserved {
        let object = offsets.count
        offsets.append(0)
        let start = references.count
        references.append(contentsOf: repeatElement(0, count: count))
        containers.append((object, isDictionary, start, count))
        return Reserved(object: object, start: start)
    }

    private mutating func setReference(in container: Reserved, at position: Int, to object: Int) {
        references[container.start + position] = object
    }

    private mutating func addDictionary(_ dictionary: PropertyListDictionary) -> Int {
        let count = dictionary.count
        let container = reserveContainer(count: count * 2, isDictionary: true)
        let keys = dictionary.keys
        let identity = keys.withUnsafeBufferPointer { KeysIdentity(address: UInt(bitPattern: $0.baseAddress), count: $0.count) }
        let keyObjects: [Int]
        if let known = keyArrays[identity], identity.address != 0 {
            keyObjects = known
        } else {
            keyObjects = keys.map { addString($0) }
            if identity.address != 0 { keyArrays[identity] = keyObjects }
        }
        for position in 0..<count {
            setReference(in: container, at: position, to: keyObjects[position])
            setReference(in: container, at: count + position, to: add(dictionary.values[position]))
        }
        return container.object
    }

    /// Numbers a value inside an entry, writing scalars as they come.
    private mutating func add(_ value: PropertyListValue) -> Int {
        switch value {
        case .uid(let uid):
            let slot = Int(truncatingIfNeeded: uid)
            if slot >= 0, slot < uidObjects.count {
                if uidObjects[slot] >= 0 { return Int(uidObjects[slot]) }
                let object = appendScalar(value)
                uidObjects[slot] = Int32(truncatingIfNeeded: object)
                return object
            }
            return appendScalar(value)
        case .integer(let integer):
            return addUniqued(.integer(integer), value)
        case .real(let real):
            return addUniqued(.real(real), value)
        case .bool(true):
            if trueObject < 0 { trueObject = appendScalar(value) }
            return trueObject
        case .bool(false):
            if falseObject < 0 { falseObject = appendScalar(value) }
            return falseObject
        case .string(let string):
            return addString(string)
        case .array(let elements):
            let container = reserveContainer(count: elements.count, isDictionary: false)
            for (position, element) in elements.enumerated() {
                setReference(in: container, at: position, to: add(element))
            }
            return container.object
        case .dictionary(let dictionary):
            return addDictionary(dictionary)
        case .date, .data, .null:
            return appendScalar(value)
        }
    }

    private mutating func addString(_ string: String) -> Int {
        addUniqued(.string(ExactStringKey(string)), .string(string))
    }

    private mutating func addUniqued(_ key: ScalarKey, _ value: PropertyListValue) -> Int {
        let next = offsets.count
        let object = scalars.findOrInsert(key, object: next)
        if object == next { _ = appendScalar(value) }
        return object
    }

    // MARK: Bytes

    /// Writes a scalar object and returns its number.
    private mutating func appendScalar(_ value: PropertyListValue) -> Int {
        offsets.append(output.count)
        output.appendScalar(value)
        return offsets.count - 1
    }

    /// Writes the containers, the offset table and the trailer (top object 0).
    private mutating func finish() -> [UInt8] {
        let referenceSize = BinaryPropertyListFormat.byteWidth(UInt64(offsets.count))
        output.reserveCapacity(containers.count * 3 + references.count * referenceSize + offsets.count * 4 + 32)
        for container in containers {
            offsets[container.object] = output.count
            output.appendContainer(
                isDictionary: container.isDictionary,
                references: references[container.start..<(container.start + container.count)],
                referenceSize: referenceSize)
        }
        output.appendTrailer(offsets: offsets, referenceSize: referenceSize)
        return output.bytes
    }
}
