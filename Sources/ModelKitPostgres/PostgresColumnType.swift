#if PostgreSQL
    import Foundation
    import ModelKitCore
    import ModelKitStore
    import PostgresNIO

    /// The PostgreSQL type of a column, from its property's value kind, and how the store's
    /// neutral values (``StoreValue``: SQLite's storage classes) are bound to it and read from it.
    ///
    /// Integers are `bigint`, booleans `boolean`, floating-point numbers `double precision`, strings
    /// and URLs `text` (in the "C" collation, so text compares and orders by bytes, as in SQLite),
    /// `Data` `bytea`, dates `timestamptz`, decimals `numeric`, UUIDs `uuid`, and nested models,
    /// collections and JSON values `jsonb`.
    enum PostgresColumnType: String, Sendable {
        case bigint
        case boolean
        case doublePrecision = "double precision"
        case text
        case bytea
        case timestamptz
        case numeric
        case uuid
        case jsonb

        init(_ kind: ModelValueKind) {
            switch kind {
            case .bool: self = .boolean
            case .integer: self = .bigint
            case .float: self = .doublePrecision
            case .decimal: self = .numeric
            case .string, .url, .other: self = .text
            case .date: self = .timestamptz
            case .data: self = .bytea
            case .uuid: self = .uuid
            case .json, .array, .set, .dictionary: self = .jsonb
            case .optional(let wrapped): self.init(wrapped)
            case .model:
                if let identifier = kind.referenceIdentifierKind {
                    self.init(identifier)
                } else {
                    self = .jsonb
                }
            }
        }

        /// The type in a column definition.
        var definition: String {
            self == .text ? #"text COLLATE "C""# : rawValue
        }

        /// The type as `information_schema.columns.data_type` names it.
        var informationSchemaName: String {
            switch self {
            case .timestamptz: return "timestamp with time zone"
            default: return rawValue
            }
        }

        /// The column as a `SELECT` reads it: types PostgresNIO has no exact Swift form for are
        /// read as their text (`numeric`, `jsonb`).
        func selectExpression(_ quotedColumn: String) -> String {
            switch self {
            case .numeric, .jsonb: return quotedColumn + "::text"
            default: return quotedColumn
            }
        }

        /// The placeholder for parameter `index`, cast to the column's type where the bound
        /// value is text PostgreSQL must convert (`numeric`, `jsonb`).
        func placeholder(_ index: Int) -> String {
            switch self {
            case .numeric, .jsonb: return "$\(index)::\(rawValue)"
            default: return "$\(index)"
            }
        }

        // MARK: Binding

        /// Appends `value` to `bindings` as this type, in the binary form array elements use
        /// (``writeElement(_:to:)``); throws when the value is not of it.
        func bind(_ value: StoreValue, to bindings: inout PostgresBindings) throws {
            guard value != .null else { return bindings.appendNull() }
            try bindings.append(PostgresColumnValue(type: self, value: value))
        }

        func mismatch(_ value: StoreValue) -> ModelError {
            ModelError(.invalidValue, expected: "a value for a PostgreSQL '\(rawValue)' column", found: value.sqlLiteral)
        }

        // MARK: Reading

        /// The neutral value of a cell of this type.
        func value(of cell: PostgresCell) throws -> StoreValue {
            guard cell.bytes != nil else { return .null }
            switch self {
            case .bigint: return .integer(try cell.decode(Int64.self))
            case .boolean: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .doublePrecision: return .real(try cell.decode(Double.self))
            case .text, .numeric, .jsonb: return .text(try cell.decode(String.self))
            case .bytea:
                var buffer = try cell.decode(ByteBuffer.self)
                return .blob(buffer.readData(length: buffer.readableBytes) ?? Data())
            case .timestamptz: return .text(StoreDates.format(try cell.decode(PostgresTimestamp.self).date))
            case .uuid: return .text(try cell.decode(UUID.self).uuidString)
            }
        }

        /// Whether ``anyValue(of:)`` reads a column of this SQL type (as `format_type` or
        /// `information_schema` spell it) as it is; other types are selected as their text.
        static func readsNatively(_ type: String) -> Bool {
            [
                "bigint", "integer", "smallint", "boolean", "double precision", "real", "text", "character varying",
                "bytea", "timestamp with time zone", "timestamp without time zone", "uuid",
            ].contains { type == $0 || type.hasPrefix($0 + "(") }
        }

        /// The neutral value of a cell of any type (a column the model no longer has, for a
        /// migration hook), by the type the server reports; nil for a type the store never writes.
        static func anyValue(of cell: PostgresCell) throws -> StoreValue? {
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return try PostgresColumnType.bigint.value(of: cell)
            case .bool: return try PostgresColumnType.boolean.value(of: cell)
            case .float4, .float8: return try PostgresColumnType.doublePrecision.value(of: cell)
            case .text, .varchar, .name: return try PostgresColumnType.text.value(of: cell)
            case .bytea: return try PostgresColumnType.bytea.value(of: cell)
            case .timestamptz, .timestamp: return try PostgresColumnType.timestamptz.value(of: cell)
            case .uuid: return try PostgresColumnType.uuid.value(of: cell)
            default: return nil
            }
        }
    }

    /// One non-null value bound as its column's type (numeric and jsonb as text, which the
    /// placeholder casts).
    struct PostgresColumnValue: PostgresThrowingDynamicTypeEncodable {
        let type: PostgresColumnType
        let value: StoreValue

        var psqlType: PostgresDataType { type.arrayTypes.element }
        var psqlFormat: PostgresFormat { .binary }

        func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) throws {
            try type.writeElement(value, to: &buffer)
        }
    }

    /// A `timestamptz` to the microsecond, rounded to the nearest (PostgresNIO's `Date` truncates):
    /// microseconds since 2000-01-01 UTC, PostgreSQL's binary form.
    struct PostgresTimestamp: PostgresDecodable {
        /// 2000-01-01T00:00:00Z in seconds since 2001-01-01, `Date`'s reference.
        private static let epoch: Double = -31_622_400
        let microseconds: Int64

        /// The nearest microsecond to `date`; clamped to the 64-bit range beyond it.
        init(_ date: Date) {
            let seconds = date.timeIntervalSinceReferenceDate
            microseconds = Self.nearestMicrosecond(to: seconds) ?? (seconds < 0 ? .min : .max)
        }

        /// The nearest microsecond since 2000 to `seconds` since 2001, or nil beyond 64 bits.
        /// Whole seconds and the fraction apart: both are exact, so only the fraction's product
        /// rounds, and the nearest microsecond is the nearest (not one off near a half).
        private static func nearestMicrosecond(to seconds: Double) -> Int64? {
            let whole = seconds.rounded(.down)
            guard let wholeSeconds = Int64(exactly: whole - epoch) else { return nil }
            let (scaled, overflow) = wholeSeconds.multipliedReportingOverflow(by: 1_000_000)
            let (sum, overflowAgain) = scaled.addingReportingOverflow(Int64(((seconds - whole) * 1_000_000).rounded()))
            return overflow || overflowAgain ? nil : sum
        }

        var date: Date {
            // Whole microseconds since 2001 first, so the one division gives the nearest Double.
            let (sinceReference, overflow) = microseconds.addingReportingOverflow(Int64(Self.epoch) * 1_000_000)
            guard !overflow else { return Date(timeIntervalSinceReferenceDate: Double(microseconds) / 1_000_000 + Self.epoch) }
            return Date(timeIntervalSinceReferenceDate: Double(sinceReference) / 1_000_000)
        }

        init<JSONDecoder: PostgresJSONDecoder>(
            from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
            context: PostgresDecodingContext<JSONDecoder>
        ) throws {
            guard type == .timestamptz || type == .timestamp, format == .binary, buffer.readableBytes == 8,
                let value = buffer.readInteger(as: Int64.self)
            else { throw PostgresDecodingError.Code.typeMismatch }
            microseconds = value
        }
    }
#endif
