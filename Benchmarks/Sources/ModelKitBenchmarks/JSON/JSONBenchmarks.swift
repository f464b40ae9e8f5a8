func jsonComparisons() throws -> [Comparison] { [] }
