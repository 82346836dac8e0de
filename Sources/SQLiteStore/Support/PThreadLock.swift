#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex, as a class that can be handed around and locked around a C call.
///
/// Not `Synchronization.Mutex`: on Linux that locks with futexes that ThreadSanitizer cannot see, so
/// the TSan run of CI reports every pair of accesses it guards as a race; a pthread mutex is one that
/// TSan understands (as Foundation's `NSLock`, which this replaces so that the module needs no
/// Foundation, is).
final class PThreadLock: @unchecked Sendable {
    // @unchecked: the mutex is only touched through pthread calls, which synchronize themselves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let code = pthread_mutex_init(mutex, nil)
        precondition(code == 0, "pthread_mutex_init failed with \(code)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Waits for the lock and takes it.
    func lock() {
        let code = pthread_mutex_lock(mutex)
        precondition(code == 0, "pthread_mutex_lock failed with \(code)")
    }

    /// Releases the lock, which the calling thread holds.
    func unlock() {
        let code = pthread_mutex_unlock(mutex)
        precondition(code == 0, "pthread_mutex_unlock failed with \(code)")
    }

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
