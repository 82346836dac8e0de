import Foundation
import SQLiteStore
import Testing

/// Iterates `sequence` until the deliveries received so far satisfy `done`, or `timeout` passes.
///
/// - Returns: the deliveries received, in order.
func collect(
    _ sequence: DatabaseChangeSequence, timeout: Duration = .seconds(20),
    until done: @escaping @Sendable ([DatabaseChanges]) -> Bool
) async -> [DatabaseChanges] {
    await withTaskGroup(of: [DatabaseChanges]?.self) { group in
        group.addTask {
            var received: [DatabaseChanges] = []
            for await changes in sequence {
                received.append(changes)
                if done(received) { break }
            }
            return received
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        var result: [DatabaseChanges] = []
        for await outcome in group {
            if let outcome {
                result = outcome
                group.cancelAll()
            } else {
                group.cancelAll()
            }
            break
        }
        return result
    }
}

/// All deliveries merged into one.
func merged(_ deliveries: [DatabaseChanges]) -> DatabaseChanges? {
    guard var first = deliveries.first else { return nil }
    for next in deliveries.dropFirst() { first.append(next) }
    return first
}
