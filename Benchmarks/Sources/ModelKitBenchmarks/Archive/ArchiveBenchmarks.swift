func archiveComparisons() throws -> [Comparison] { [] }
