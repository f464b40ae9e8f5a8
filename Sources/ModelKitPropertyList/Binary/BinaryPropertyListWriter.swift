#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a `PropertyListValue` as a binary property list (`bplist00`) that Apple's
/// CFPropertyList and NSKeyedUnarchiver read.
///
/// Layout rules, following Apple's CFBinaryPList writer:
/// - Objects are numbered in depth-first pre-order from the root (index 0); a dictionary's keys
///   come before its values.
/// - Scalars are uniqued: equal strings, integers, reals, dates, data, UIDs and booleans are
///   written once and referenced wherever they occur. Equality here is exact (strings by bytes,
///   reals by width and bit pattern), so uniquing never changes a value. Arrays and dictionaries
///   are written once per occurrence.
/// - Object references and offsets use the smallest of 1, 2, 4 or 8 bytes that fits the object
///   count and the offset table's position.
/// - Strings are ASCII (`0x5n`) when every character is below U+0080, otherwise UTF-16BE (`0x6n`).
/// - Integers use the smallest of 1, 2, 4 or 8 bytes; negative values always take 8 bytes, and
///   values above `Int64.max` take the 16-byte form. Reals keep their 4- or 8-byte width.
/// - Dictionaries are written in their document order.
///
/// One difference in placement: Apple writes objects in index order; this writer writes each
/// scalar as soon as it is numbered and all arrays and dictionaries after the scalars, when the
/// object count (and so the reference size) is known. The offset table makes placement free, so
/// readers see the same objects; it saves a pass and a copy of every scalar.
///
/// The writer does not recurse, so any depth is written.
///
/// ```swift
/// let bytes = BinaryPropertyListWriter.write(["$version": 100_000])
/// ```
struct BinaryPropertyListWriter: ~Copyable {
    /// Encodes `value` as a complete binary property list.
    static func write(_ value: PropertyListValue) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        let root = writer.add(value)
        writer.flatten()
        return writer.builder.finish(topObject: root)
    }

    /// A container whose children are being numbered.
    struct Frame {
        /// A dictionary's keys (empty for arrays).
        let keys: [String]
        /// An array's elements or a dictionary's values.
        let values: [PropertyListValue]
        /// Where its references start in the builder.
        let referencesStart: Int
        let total: Int
        var next = 0
    }

    var builder = BinaryPropertyListBuilder()
    var frames: [Frame] = []

    /// Numbers every object below the open containers depth-first in pre-order, writing each new
    /// scalar as it is found.
    mutating func flatten() {
        while let top = frames.indices.last {
            let position = frames[top].next
            guard position < frames[top].total else {
                frames.removeLast()
                continue
            }
            frames[top].next = position + 1
            let keyCount = frames[top].keys.count
            let object: Int32
            if position < keyCount {
                object = builder.uniqueString(frames[top].keys[position]).object
            } else {
                object = add(frames[top].values[position - keyCount])
            }
            builder.setReference(frames[top].referencesStart + position, to: object)
        }
    }

    /// Numbers `value` and returns its object; a non-empty container opens a frame whose children
    /// are numbered next.
    private mutating func add(_ value: PropertyListValue) -> Int32 {
        switch value {
        case .array(let elements):
            return addContainer(keys: [], values: elements, isDictionary: false)
        case .dictionary(let dictionary):
            return addContainer(keys: dictionary.keys, values: dictionary.values, isDictionary: true)
        default:
            // Every other value is a scalar.
            return builder.uniqueScalar(value)?.object ?? 0
        }
    }

    private mutating func addContainer(keys: [String], values: [PropertyListValue], isDictionary: Bool) -> Int32 {
        let object = builder.reserveObject()
        let total = keys.count + values.count
        let start = builder.reserveContainer(object, isDictionary: isDictionary, count: total)
        if total > 0 {
            frames.append(Frame(keys: keys, values: values, referencesStart: start, total: total))
        }
        return object
    }
}
