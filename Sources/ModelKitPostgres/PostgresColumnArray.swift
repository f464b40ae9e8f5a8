#if PostgreSQL
    import Foundation
    import ModelKitCore
    import ModelKitStore
    import PostgresNIO

    /// One column of many rows as a PostgreSQL array parameter, in PostgreSQL's binary array
    /// form, so an upsert sends every row in one statement: `INSERT ... SELECT FROM UNNEST($1, $2, ...)`.
    ///
    /// Elements may be `NULL` (PostgresNIO's own arrays cannot hold nils). `numeric` and `jsonb`
    /// columns travel as `text[]`, which the statement casts.
    struct PostgresColumnArray: PostgresThrowingDynamicTypeEncodable {
        let psqlType: PostgresDataType
        var psqlFormat: PostgresFormat { .binary }
        private let elementType: PostgresDataType
        private let count: Int
        private let hasNull: Bool
        private let elements: ByteBuffer

        /// The values of column `column` of `rows`, as `type`.
        init(_ type: PostgresColumnType, column: Int, of rows: ArraySlice<[StoreValue]>) throws {
            (elementType, psqlType) = type.arrayTypes
            var buffer = ByteBuffer()
            buffer.reserveCapacity(rows.count * 12)
            var hasNull = false
            for row in rows {
                let value = row[column]
                if value == .null {
                    hasNull = true
                    buffer.writeInteger(Int32(-1))
                } else {
                    let lengthIndex = buffer.writerIndex
                    buffer.writeInteger(Int32(0))
                    do {
                        try type.writeElement(value, to: &buffer)
                    } catch {
                        throw ElementError(row: row, underlying: error)
                    }
                    buffer.setInteger(Int32(buffer.writerIndex - lengthIndex - 4), at: lengthIndex)
                }
            }
            self.count = rows.count
            self.hasNull = hasNull
            self.elements = buffer
        }

        /// A value not of the column's type, and the row holding it.
        struct ElementError: Error {
            let row: [StoreValue]
            let underlying: any Error
        }

        func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
            buffer.writeInteger(Int32(1))  // dimensions
            buffer.writeInteger(Int32(hasNull ? 1 : 0))
            buffer.writeInteger(elementType.rawValue)
            buffer.writeInteger(Int32(count))
            buffer.writeInteger(Int32(1))  // lower bound
            buffer.writeImmutableBuffer(elements)
        }
    }

    extension PostgresColumnType {
        /// The element and array types a column travels as.
        var arrayTypes: (element: PostgresDataType, array: PostgresDataType) {
            switch self {
            case .bigint: return (.int8, .int8Array)
            case .boolean: return (.bool, .boolArray)
            case .doublePrecision: return (.float8, .float8Array)
            case .text, .numeric, .jsonb: return (.text, .textArray)
            case .bytea: return (.bytea, .byteaArray)
            case .timestamptz: return (.timestamptz, .timestamptzArray)
            case .uuid: return (.uuid, .uuidArray)
            }
        }

        /// The array parameter's placeholder, cast to the column's array type where it travels as text.
        func arrayPlaceholder(_ index: Int) -> String {
            switch self {
            case .numeric: return "$\(index)::text[]::numeric[]"
            case .jsonb: return "$\(index)::text[]::jsonb[]"
            default: return "$\(index)"
            }
        }

        /// Writes a non-null value's binary form: an array element's bytes (without the length),
        /// and a single parameter's (``PostgresColumnValue``).
        func writeElement(_ value: StoreValue, to buffer: inout ByteBuffer) throws {
            switch (self, value) {
            case (.bigint, .integer(let number)): buffer.writeInteger(number)
            case (.boolean, .integer(let number)): buffer.writeInteger(UInt8(number != 0 ? 1 : 0))
            case (.doublePrecision, .real(let number)): buffer.writeInteger(number.bitPattern)
            case (.doublePrecision, .integer(let number)): buffer.writeInteger(Double(number).bitPattern)
            case (.text, .text(let text)), (.numeric, .text(let text)), (.jsonb, .text(let text)):
                buffer.writeString(text)
            case (.bytea, .blob(let data)): buffer.writeBytes(data)
            case (.timestamptz, .text(let text)):
                guard let date = StoreDates.parse(text) else { throw mismatch(value) }
                buffer.writeInteger(PostgresTimestamp(date).microseconds)
            case (.uuid, .text(let text)):
                guard let uuid = UUID(uuidString: text) else { throw mismatch(value) }
                _ = withUnsafeBytes(of: uuid.uuid) { buffer.writeBytes($0) }
            default:
                throw mismatch(value)
            }
        }
    }
#endif
