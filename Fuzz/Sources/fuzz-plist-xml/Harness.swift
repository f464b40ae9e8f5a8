import Foundation
import ModelKit

// Bytes → the XML property-list reader (and the format detection of `init(parsing:)`). Any
// thrown error is fine.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    _ = PropertyListFormat.detect(bytes)
    _ = try? PropertyListValue(parsing: bytes)
    guard let value = try? PropertyListValue(xml: bytes) else { return 0 }
    _ = value.binaryBytes()
    _ = try? value.xmlBytes()
    return 0
}
