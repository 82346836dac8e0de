/// Order statistics of measured durations.
public struct Samples: Sendable {
    public private(set) var sorted: [Duration]

    public init(_ durations: [Duration]) {
        sorted = durations.sorted()
    }

    public var count: Int { sorted.count }

    /// The median (the mean of the two middle values for an even count).
    public var median: Duration {
        precondition(!sorted.isEmpty, "no samples")
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The nearest-rank percentile `p` (0...100).
    public func percentile(_ p: Double) -> Duration {
        precondition(!sorted.isEmpty, "no samples")
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

extension Duration {
    /// The duration in milliseconds.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
