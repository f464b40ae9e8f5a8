import FuzzSupport
import Foundation
import ModelKit

// Bytes → the binary property-list reader. Any thrown error is fine; what reads is written
// again in both formats.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    guard let value = try? PropertyListValue(binary: bytes) else { return 0 }
    _ = try? PropertyListValue(binary: value.binaryBytes())
    _ = try? value.xmlBytes()
    return 0
}

// A debug build renames an executable's `main` to `fuzz_plist_binary_main` (SwiftPM's testable
// executables), which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_cdecl("fuzz_plist_binary_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
