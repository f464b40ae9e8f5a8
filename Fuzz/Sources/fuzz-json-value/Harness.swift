import FuzzSupport
import ModelKit

// JSON bytes → the generic JSON value parser and the validator. Any thrown error is fine.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    if let value = try? JSONValue(parsing: bytes) {
        _ = try? value.jsonBytes()
    }
    _ = try? JSONValidator.validate(bytes)
    return 0
}

// A debug build renames an executable's `main` to `fuzz_json_value_main` (SwiftPM's testable
// executables), which hides libFuzzer's own `main`: start libFuzzer's driver from here instead.
@_cdecl("fuzz_json_value_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
