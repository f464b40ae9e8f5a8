import Foundation
import ModelKit

// Bytes → the generic keyed-archive dump behind `modelkit archive dump` (the document check,
// then both renderers), and the generic decode of the root object. Any thrown error is fine.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let document = try? KeyedArchiveDocument(data: data) else { return 0 }
    _ = try? ArchiveDump.text(document)
    _ = try? ArchiveDump.json(document)
    let unarchiver = KeyedUnarchiver(document: document)
    _ = try? unarchiver.decodeObject(forKey: "root")
    return 0
}
