#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro that casts -1 to a function pointer, which Swift does not import.
/// SQLite copies a value bound with this destructor before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// `sqlite3_db_config` is variadic and so cannot be called from Swift; this wraps the
/// "enable/disable a boolean setting" form used by `SQLITE_DBCONFIG_DQS_DML`, `SQLITE_DBCONFIG_DQS_DDL`
/// and friends. Returns SQLite's result code.
static inline int csqlite_db_config_bool(sqlite3 *db, int op, int value) {
    int current = 0;
    return sqlite3_db_config(db, op, value, &current);
}

/// `sqlite3_config` is variadic too; this wraps `SQLITE_CONFIG_MEMSTATUS`, which turns SQLite's memory
/// statistics on or off. It succeeds only before SQLite is initialized (the first connection opened in
/// the process, or `sqlite3_initialize()`), and returns `SQLITE_MISUSE` after.
static inline int csqlite_config_memory_statistics(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}

#endif
