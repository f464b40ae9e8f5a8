extension JSONSplitScan.Phase {
    /// Whether the scan is in an envelope's members, around a nested array.
    var isEnvelope: Bool {
        switch self {
        case .envelopeKey, .envelopeInKey, .envelopeColon, .envelopeValue, .envelopeSkip, .envelopeAfterMember: true
        default: false
        }
    }
}

extension JSONSplitScan {
    /// The key the path expects in the innermost open envelope object.
    var expectedKey: String {
        String(decoding: envelopePath[min(envelopeLevel, envelopePath.count) - 1], as: UTF8.self)
    }

    /// Walks an envelope's members (`.nestedArray`): finds the path's keys, skips every other
    /// member's value without keeping it, and hands over to the array phases at the path's end;
    /// nil once it has done so (the caller's loop goes on), or what the scan found.
    // Unsafe: scans the splitter's buffer in place; every read follows a comparison with `end`.
    mutating func advanceEnvelope(over bytes: UnsafeBufferPointer<UInt8>) -> Outcome? {
        let end = bytes.count
        if phase == .envelopeInKey {
            position = Self.quoteOrBackslash(in: bytes, from: position)
            // An escape is skipped whole; one cut by the end of the buffer waits for the next chunk.
            while position + 1 < end, bytes[position] == UInt8(ascii: "\\") {
                position = Self.quoteOrBackslash(in: bytes, from: position + 2)
            }
            guard position < end, bytes[position] == UInt8(ascii: "\"") else {
                if position - keyStart > maxElementSize { return .failed(.elementTooLarge) }
                return inputEnded ? .failed(.unexpectedEnd(expected: "'\"' to close a key", inElement: false)) : .found(.needsInput)
            }
            let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<position])
            memberOnPath = !envelopeArrayRead && envelopeLevel <= envelopePath.count
                && key.elementsEqual(envelopePath[envelopeLevel - 1])
            position += 1
            consumed = position
            phase = .envelopeColon
            return nil
        }
        if phase == .envelopeSkip {
            let valueEnd = scanElement(bytes)
            consumed = position
            start = position
            guard valueEnd != nil else {
                if !inputEnded { return .found(.needsInput) }
                return .failed(.unexpectedEnd(expected: "the end of the value of a member", inElement: false))
            }
            phase = .envelopeAfterMember
            return nil
        }
        while position < end, ByteScanning.isWhitespace(bytes[position]) { position += 1 }
        consumed = position
        guard position < end else {
            if !inputEnded { return .found(.needsInput) }
            return .failed(.unexpectedEnd(expected: expectedAtEnd() ?? "'}'", inElement: false))
        }
        let byte = bytes[position]
        switch phase {
        case .envelopeKey, .envelopeAfterMember:
            if byte == UInt8(ascii: "}") {
                guard envelopeArrayRead else {
                    return .failed(.unexpectedByte(at: position, expected: "'\(expectedKey)' in the envelope before '}'"))
                }
                position += 1
                envelopeLevel -= 1
                phase = envelopeLevel == 0 ? .closed : .envelopeAfterMember
            } else if phase == .envelopeAfterMember {
                guard byte == UInt8(ascii: ",") else {
                    return .failed(.unexpectedByte(at: position, expected: "',' or '}' after a member of the envelope"))
                }
                position += 1
                phase = .envelopeKey
            } else {
                guard byte == UInt8(ascii: "\"") else {
                    return .failed(.unexpectedByte(at: position, expected: "a key or '}' in the envelope"))
                }
                position += 1
                keyStart = position
                phase = .envelopeInKey
            }
        case .envelopeColon:
            guard byte == UInt8(ascii: ":") else {
                return .failed(.unexpectedByte(at: position, expected: "':' after a key of the envelope"))
            }
            position += 1
            phase = .envelopeValue
        case .envelopeValue:
            guard memberOnPath else {
                beginElement(with: byte)
                phase = .envelopeSkip
                return nil
            }
            if envelopeLevel == envelopePath.count {
                guard byte == UInt8(ascii: "[") else {
                    return .failed(.unexpectedByte(at: position, expected: "'[' to start the array at '\(expectedKey)'"))
                }
                position += 1
                phase = .beforeFirst
            } else {
                guard byte == UInt8(ascii: "{") else {
                    return .failed(.unexpectedByte(at: position, expected: "'{' to start the object at '\(expectedKey)'"))
                }
                position += 1
                envelopeLevel += 1
                phase = .envelopeKey
            }
        default:
            break
        }
        return nil
    }
}
