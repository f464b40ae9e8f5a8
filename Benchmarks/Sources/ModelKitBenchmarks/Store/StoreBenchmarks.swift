func storeComparisons() throws -> [Comparison] { [] }
