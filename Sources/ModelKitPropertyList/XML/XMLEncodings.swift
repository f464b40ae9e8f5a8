/// Text-encoding checks and conversions for the XML reader.
enum XMLTextDecoding {
    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence (no
    /// overlong forms, no surrogates, nothing above U+10FFFF), or `nil` when all of it is valid.
    ///
    /// ```swift
    /// [0x61, 0xC3, 0xA9].withUnsafeBytes { XMLTextDecoding.firstInvalidUTF8Offset($0) }   // nil
    /// [0x61, 0xC3].withUnsafeBytes { XMLTextDecoding.firstInvalidUTF8Offset($0) }         // 1
    /// ```
    // The document's bytes in place: ASCII skipped eight bytes at a time with unaligned loads, each index checked
    // against the count.
    static func firstInvalidUTF8Offset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            // Skip ASCII eight bytes at a time.
            if index + 8 <= count,
               bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= lower, second <= upper else { return index }
            for continuation in (index + 2)..<(index + length) where bytes[continuation] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }

    /// Converts UTF-16 text that starts with a byte-order mark to UTF-8 (dropping the mark), or
    /// returns `nil` for an odd length or an unpaired surrogate.
    // The document's bytes in place; every index read is below the count, which is checked to be even first.
    static func utf8(fromUTF16WithByteOrderMark bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count % 2 == 0, bytes.count >= 2 else { return nil }
        let bigEndian = bytes[0] == 0xFE
        func unit(at index: Int) -> UInt16 {
            let high = UInt16(bytes[bigEndian ? index : index + 1])
            let low = UInt16(bytes[bigEndian ? index + 1 : index])
            return high << 8 | low
        }
        var output = [UInt8](repeating: 0, count: bytes.count / 2 * 3)
        var written = 0
        var index = 2
        // The output array's storage in place, sized for the worst case (3 bytes per code unit), so each scalar is
        // written without an append.
        let valid = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            while index < bytes.count {
                let first = unit(at: index)
                index += 2
                var scalar = UInt32(first)
                if first & 0xF800 == 0xD800 {
                    guard first < 0xDC00, index < bytes.count else { return false }
                    let second = unit(at: index)
                    guard second & 0xFC00 == 0xDC00 else { return false }
                    index += 2
                    scalar = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
                }
                written += UTF8Encoding.encode(scalar, into: buffer, at: written)
            }
            return true
        }
        guard valid else { return nil }
        output.removeSubrange(written...)
        return output
    }
}

// MARK: - Base64

/// Base64 for `<data>` elements, with Apple's line layout.
///
/// Apple's XML writer puts the base64 text on its own lines, each indented like the `<data>` tag
/// (at most 8 tabs) and at most `76 - 8 × min(indent, 8)` characters long: tabs count as 8
/// columns against a 76-column line. The reader ignores whitespace anywhere in the text.
///
/// ```swift
/// var out: [UInt8] = []
/// PropertyListBase64.appendLines(of: [0x61, 0x73, 0x64], indent: 2, to: &out)
/// // "\t\tYXNk\n"
/// ```
enum PropertyListBase64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Maps an ASCII byte to its 6-bit value; `0xFF` for bytes outside the alphabet.
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }()

    /// Appends the base64 lines of `bytes` for a `<data>` tag at `indent` tabs.
    static func appendLines<Bytes: Collection<UInt8>>(of bytes: Bytes, indent: Int, to output: inout [UInt8]) {
        let tabs = min(indent, 8)
        let lineLength = 76 - 8 * tabs  // a multiple of 4, so lines end on whole quanta
        let bytesPerLine = lineLength / 4 * 3
        var iterator = bytes.makeIterator()
        var lineBytes = 0
        var lineOpen = false
        var quantum: [UInt8] = [0, 0, 0]
        while true {
            var taken = 0
            while taken < 3, let byte = iterator.next() {
                quantum[taken] = byte
                taken += 1
            }
            if taken == 0 { break }
            if !lineOpen {
                output.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: tabs))
                lineOpen = true
            }
            let b0 = quantum[0]
            let b1: UInt8 = taken > 1 ? quantum[1] : 0
            let b2: UInt8 = taken > 2 ? quantum[2] : 0
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            output.append(taken > 1 ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            output.append(taken > 2 ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            lineBytes += taken
            if lineBytes >= bytesPerLine || taken < 3 {
                output.append(UInt8(ascii: "\n"))
                lineOpen = false
                lineBytes = 0
            }
            if taken < 3 { break }
        }
        if lineOpen { output.append(UInt8(ascii: "\n")) }
    }

    /// Decodes base64 text, skipping ASCII whitespace; `nil` when a character is outside the
    /// alphabet, padding is misplaced, or the text ends inside a quantum that cannot hold a byte.
    /// Stops with `nil` as soon as the output would exceed `maximumLength`, reporting it through
    /// `exceededLimit`.
    static func decode<Bytes: Collection<UInt8>>(
        _ text: Bytes, maximumLength: Int, exceededLimit: inout Bool
    ) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(max(0, min(text.count / 4 * 3, maximumLength)))
        var accumulator: UInt32 = 0
        var pending = 0
        var padding = 0
        for byte in text {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "="):
                // Padding may only complete a quantum of 2 or 3 characters.
                guard pending + padding >= 2 else { return nil }
                padding += 1
                guard pending + padding <= 4 else { return nil }
                if pending + padding == 4 {
                    pending = 0
                    padding = 0
                    accumulator = 0
                }
                continue
            default:
                break
            }
            let value = decodeTable[Int(byte)]
            guard value != 0xFF, padding == 0 else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            pending += 1
            if pending == 2 || pending == 3 || pending == 4 {
                guard output.count < maximumLength else {
                    exceededLimit = true
                    return nil
                }
                let shift = UInt32(8 - 2 * pending)
                output.append(UInt8(truncatingIfNeeded: accumulator >> shift))
                accumulator &= (UInt32(1) << shift) - 1
            }
            if pending == 4 {
                pending = 0
                accumulator = 0
            }
        }
        guard padding == 0, pending != 1 else { return nil }
        return output
    }
}
