import Foundation

/// The bytes of a file in the benchmark's resources.
func resource(_ name: String) throws -> Data {
    guard let url = Bundle.module.url(forResource: "Resources/\(name)", withExtension: nil) else {
        throw CocoaError(.fileNoSuchFile)
    }
    return try Data(contentsOf: url)
}
