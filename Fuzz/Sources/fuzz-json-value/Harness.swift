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
