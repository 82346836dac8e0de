#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for work that blocks for long (a loop waiting in `poll(2)`), started detached
/// as Foundation's `Thread` starts one, without Foundation.
///
/// For the package's modules (the change monitor, `browse`'s key reader), not for embedders.
package enum DetachedThread {
    /// Runs `body` on a new detached thread.
    ///
    /// Traps when the system cannot create a thread.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let code = pthread_create(&thread, nil, { context in
            let pointer: UnsafeMutableRawPointer? = context
            Unmanaged<Start>.fromOpaque(pointer!).takeRetainedValue().run()
            return nil
        }, start)
        precondition(code == 0, "pthread_create failed with \(code)")
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
    }

    /// What the new thread runs, handed to it through `pthread_create`'s context pointer.
    private final class Start {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }
}
