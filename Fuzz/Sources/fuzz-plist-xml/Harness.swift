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

// A debug build renames an executable's `main` to `fuzz_plist_xml_main` (SwiftPM's testable executables),
// which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

@_cdecl("fuzz_plist_xml_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, fuzz)
}
