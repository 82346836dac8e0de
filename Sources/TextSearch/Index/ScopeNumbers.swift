import SQLiteStore

/// Scope values numbered from 0 in the order first seen, so that a counter keeps its tallies per
/// scope value in arrays (``SubstringCounter``, ``HeldSubstringCounter``, a bulk build's gram counts).
struct ScopeNumbers {
    /// The scope values seen; a value's number is its index here.
    private(set) var values: [DatabaseValue] = []
    private var numbers: [DatabaseValue: Int] = [:]

    /// The number of `value`, numbered when first seen (then equal to the count of values before it).
    mutating func number(of value: DatabaseValue) -> Int {
        if let known = numbers[value] { return known }
        let number = values.count
        numbers[value] = number
        values.append(value)
        return number
    }
}
