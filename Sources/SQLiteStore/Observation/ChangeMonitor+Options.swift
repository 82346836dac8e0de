// MARK: - Options and statistics

extension ChangeMonitor {
    /// How a monitor notices commits and how much it holds.
    public struct Options: Sendable {
        /// Whether to watch the database's files for writes (inotify, Linux only). Default true. When
        /// off or unavailable, the monitor checks `PRAGMA data_version` every ``pollInterval``.
        public var usesFileEvents = true

        /// How often to check `PRAGMA data_version` when file events are unavailable. Default 50 ms.
        public var pollInterval: Duration = .milliseconds(50)

        /// The most events one read of the log returns, and the most a subscriber holds undelivered;
        /// beyond, the delivery is ``DatabaseChanges/Gap/fellBehind``. Default 100,000.
        public var maximumPendingChanges = 100_000

        /// Creates the default options.
        public init() {}
    }

    /// Counters of a monitor's work since it started, for tests and benchmarks.
    public struct Statistics: Sendable, Hashable {
        /// Times the monitor's thread woke up (a file event, a same-process commit, a timer).
        public var wakeUps = 0
        /// Times `PRAGMA data_version` showed a commit and the monitor read the log.
        public var logReads = 0
        /// Change sets handed to subscribers, all subscribers together (before a busy consumer's mailbox
        /// merges them).
        public var deliveries = 0
        /// Incomplete change sets delivered: each one makes its subscriber fall back to a full refetch.
        public var incompleteDeliveries = 0
        /// Whether the monitor is woken by file events (true) or checks on a timer (false).
        public var usesFileEvents = false
    }
}
