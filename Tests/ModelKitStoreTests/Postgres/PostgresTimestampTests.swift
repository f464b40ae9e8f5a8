#if PostgreSQL
    import Foundation
    @testable import ModelKitPostgres
    import ModelKitTestSupport
    import Testing

    /// A date goes to a `timestamptz` as the nearest microsecond since 2000-01-01 UTC: the exact
    /// nearest, worked out on the date's exact binary value, not one off where the product of a
    /// large interval and a million rounds across a half.
    @Suite struct PostgresTimestampTests {
        @Test(arguments: [
            // Seconds since 2001-01-01, then the nearest microsecond since 2000-01-01 (exact arithmetic).
            (0.0, 31_622_400_000_000 as Int64),
            (-31_622_400, 0),
            (800_000_000.8885984, 831_622_400_888_598),  // was 831_622_400_888_599
            (800_000_000.5968535, 831_622_400_596_853),  // was 831_622_400_596_854
            (800_000_000.1236465, 831_622_400_123_646),  // was 831_622_400_123_647
            (-4_978_307_200.123_456_7, -4_946_684_800_123_457),
        ])
        func aDateBecomesTheNearestMicrosecond(seconds: Double, microseconds: Int64) {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let stamp = PostgresTimestamp(date)
            expectEqual(stamp.microseconds, microseconds)
            #expect(stamp.date.isNearestMicrosecond(of: date))
        }

        /// Dates beyond what 64 bits of microseconds hold are clamped, not wrapped or trapped.
        @Test(arguments: [(Double.infinity, Int64.max), (-.infinity, .min), (1e300, .max), (-1e300, .min)])
        func aDateOutOfRangeIsClamped(seconds: Double, microseconds: Int64) {
            expectEqual(PostgresTimestamp(Date(timeIntervalSinceReferenceDate: seconds)).microseconds, microseconds)
        }
    }
#endif
