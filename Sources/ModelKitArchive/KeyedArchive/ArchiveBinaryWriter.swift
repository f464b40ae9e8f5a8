import Foundation

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
    private var output: [UInt8] = BinaryPropertyListFormat.header
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
        switch value {
        case .string(let string): appendString(string)
        case .integer(let integer): appendInteger(integer)
        case .real(let real):
            if real.width == .single {
                output.append(BinaryPropertyListFormat.float32Marker)
                appendBigEndian(real.bits, size: 4)
            } else {
                output.append(BinaryPropertyListFormat.float64Marker)
                appendBigEndian(real.bits, size: 8)
            }
        case .bool(let flag): output.append(flag ? BinaryPropertyListFormat.trueMarker : BinaryPropertyListFormat.falseMarker)
        case .date(let date):
            output.append(BinaryPropertyListFormat.dateMarker)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let data):
            appendMarker(BinaryPropertyListFormat.TypeNibble.data, count: data.count)
            output.append(contentsOf: data)
        case .uid(let uid):
            let size = BinaryPropertyListFormat.byteWidth(uid)
            output.append(BinaryPropertyListFormat.TypeNibble.uid << 4 | UInt8(size - 1))
            appendBigEndian(uid, size: size)
        case .null: output.append(BinaryPropertyListFormat.nullMarker)
        case .array, .dictionary: break
        }
        return offsets.count - 1
    }

    private mutating func appendString(_ string: String) {
        var string = string
        let ascii = string.withUTF8 { BinaryPropertyListWriter.isASCII(UnsafeRawBufferPointer($0)) }
        if ascii {
            appendMarker(BinaryPropertyListFormat.TypeNibble.asciiString, count: string.utf8.count)
            output.append(contentsOf: string.utf8)
            return
        }
        appendMarker(BinaryPropertyListFormat.TypeNibble.utf16String, count: string.utf16.count)
        for unit in string.utf16 {
            output.append(UInt8(truncatingIfNeeded: unit >> 8))
            output.append(UInt8(truncatingIfNeeded: unit))
        }
    }

    /// An integer in the smallest width Apple's reader accepts: negative values take 8 bytes,
    /// values above `Int64.max` the 16-byte form.
    private mutating func appendInteger(_ integer: PropertyListInteger) {
        if integer.needsUnsigned128BitEncoding {
            output.append(BinaryPropertyListFormat.int128Marker)
            appendBigEndian(0, size: 8)
            appendBigEndian(integer.bitPattern, size: 8)
        } else if integer.isNegative {
            output.append(BinaryPropertyListFormat.TypeNibble.integer << 4 | 3)
            appendBigEndian(integer.bitPattern, size: 8)
        } else {
            appendUnsigned(integer.bitPattern)
        }
    }

    private mutating func appendUnsigned(_ value: UInt64) {
        let size = BinaryPropertyListFormat.byteWidth(value)
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
        output.append(BinaryPropertyListFormat.TypeNibble.integer << 4 | exponent)
        appendBigEndian(value, size: size)
    }

    private mutating func appendMarker(_ nibble: UInt8, count: Int) {
        if count < 15 {
            output.append(nibble << 4 | UInt8(count))
        } else {
            output.append(nibble << 4 | BinaryPropertyListFormat.extendedCount)
            appendUnsigned(UInt64(count))
        }
    }

    private mutating func appendBigEndian(_ value: UInt64, size: Int) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// Writes the containers, the offset table and the trailer (top object 0).
    private mutating func finish() -> [UInt8] {
        let objectCount = offsets.count
        let referenceSize = BinaryPropertyListFormat.byteWidth(UInt64(objectCount))
        output.reserveCapacity(output.count + containers.count * 3 + references.count * referenceSize + objectCount * 4 + 32)
        for container in containers {
            offsets[container.object] = output.count
            let count = container.isDictionary ? container.count / 2 : container.count
            appendMarker(
                container.isDictionary ? BinaryPropertyListFormat.TypeNibble.dictionary : BinaryPropertyListFormat.TypeNibble.array,
                count: count)
            for position in container.start..<(container.start + container.count) {
                appendBigEndian(UInt64(references[position]), size: referenceSize)
            }
        }
        let tableStart = output.count
        let offsetSize = BinaryPropertyListFormat.byteWidth(UInt64(tableStart))
        for offset in offsets {
            appendBigEndian(UInt64(offset), size: offsetSize)
        }
        output.append(contentsOf: repeatElement(0, count: 6))
        output.append(UInt8(offsetSize))
        output.append(UInt8(referenceSize))
        appendBigEndian(UInt64(objectCount), size: 8)
        appendBigEndian(0, size: 8)
        appendBigEndian(UInt64(tableStart), size: 8)
        return output
    }
}
