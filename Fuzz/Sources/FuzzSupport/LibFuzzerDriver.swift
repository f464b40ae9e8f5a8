// What every harness shares: starting libFuzzer's driver from the harness's own entry point.

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process's arguments, calling `testOneInput` for each input.
///
/// SwiftPM's debug builds rename an executable's `main` to `<module>_main`, which hides the
/// `main` libFuzzer links in; each harness defines that symbol and calls this.
///
/// ```swift
/// @_cdecl("fuzz_json_value_main")
/// public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
///     runLibFuzzer(argc, argv, fuzz)
/// }
/// ```
public func runLibFuzzer(
    _ argc: CInt,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ testOneInput: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, testOneInput)
}
