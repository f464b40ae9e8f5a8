import Foundation
import GRDB

extension StoreValue {
    /// A value GRDB read from a column.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }

    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let number): return number.databaseValue
        case .real(let number): return number.databaseValue
        case .text(let text): return text.databaseValue
        case .blob(let data): return data.databaseValue
        }
    }
}

extension StatementArguments {
    /// Arguments from stored values, in placeholder order.
    init(storeValues values: [StoreValue]) {
        self.init(values.map(\.databaseValue))
    }
}
