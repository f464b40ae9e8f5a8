import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

/// Keyed archives of a JSON payload: each object becomes an object of the class of the model the
/// schema says sits there, its members that object's keys, so archives run the error table.
struct ArchiveMapper: PayloadMapper {
    func map<M: Model>(_ type: M.Type, from json: String, options: MappingOptions) throws -> M {
        let root = Self.archived(try JSONValue(parsing: json), as: .model(AnyModelType(M.self)))
        let data = try KeyedArchiver.archivedData(withRootObject: root)
        return try KeyedUnarchiver.unarchive(M.self, from: data)
    }

    /// A JSON value as the object graph an archive of a value of `kind` holds.
    static func archived(_ value: JSONValue, as kind: ModelValueKind) -> Any? {
        switch (value, kind.unwrapped) {
        case (.object(let members), .model(let model)):
            let schema = model.schema
            return ArchivedObject(
                className: schema.modelName,
                values: members.map { member in
                    (member.key, archived(member.value, as: schema[member.key]?.valueKind ?? .json) as Any)
                })
        case (.array(let elements), .array(let element)), (.array(let elements), .set(let element)):
            return elements.map { archived($0, as: element) ?? NSNull() }
        case (.array(let elements), _):
            return elements.map { archived($0, as: .json) ?? NSNull() }
        case (.object(let members), _):
            return Dictionary(members.map { ($0.key, archived($0.value, as: .json) ?? NSNull()) }) { _, last in last }
        case (.null, _): return nil  // `$null`, as Apple's archiver writes nil
        case (.bool(let flag), _): return flag
        case (.int(let integer), _): return Int(integer)
        case (.uint(let integer), _): return integer
        case (.double(let number), _): return number
        case (.decimal(let number), _): return number
        case (.string(let text), _): return text
        }
    }
}

@Suite struct ArchiveErrorTableTests {
    /// The error table's cases that apply to archives' property keys, word for word.
    @Test(arguments: MappingErrorCase.all.filter { $0.reach == .everyPath })
    func archivesReportTheTablesErrors(_ testCase: MappingErrorCase) {
        let error = testCase.run(ArchiveMapper())
        #expect((error as? ModelError)?.description == testCase.message)
    }
}
