#ifndef CSQLITE_MAPPING_H
#define CSQLITE_MAPPING_H

/// The name of a VFS that wraps SQLite's default one (`unix`) and keeps a connection's memory mapping
/// of its database file (`PRAGMA mmap_size`) while the file keeps its size, registered at the first
/// call (thread-safe); NULL if it could not be registered.
///
/// Why: SQLite unmaps a WAL reader's whole mapping at the start of every read transaction that
/// follows a commit of another connection (`pagerBeginReadTransaction`, which also empties the page
/// cache), in case another program shrank the file and grew it again; the next read maps the file
/// again and takes a page fault for every page it touches. This VFS ignores that request and instead
/// checks the file's size at the start of each read transaction (when the connection takes its WAL
/// read lock, and at that request): a file whose size changed is unmapped, and mapped again at its new
/// size by the first page read from it. So pages that a read after a commit finds outside the `-wal`
/// come from the mapping already in place: no `pread` and no copy each.
///
/// On Linux a shared mapping shows the file's current content (one page cache), so a mapping kept
/// across another connection's checkpoint reads what `pread` would.
const char *csqlite_kept_mapping_vfs_name(void);

#endif
