import Foundation

/// A file of models `modelkit generate` wrote, checked in so that it compiles with the tests, without
/// its header comment (what was generated from what, and how to regenerate it): what the generator
/// must still write.
///
/// ```swift
/// let expected = try checkedInGeneratedModels(
///     URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Generated/OddKeys.swift"))
/// ```
public func checkedInGeneratedModels(_ file: URL) throws -> String {
    let text = try String(contentsOf: file, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    while let first = lines.first, first.hasPrefix("//") { lines.removeFirst() }
    if lines.first == "" { lines.removeFirst() }
    return lines.joined(separator: "\n")
}
