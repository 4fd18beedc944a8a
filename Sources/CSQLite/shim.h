#ifndef OBSERVABLE_CSQLITE_SHIM_H
#define OBSERVABLE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, a macro Swift cannot import. It tells
// sqlite3_bind_blob and sqlite3_bind_text to copy the bytes before the call returns, so a Swift
// buffer needs to live only for the call.
static inline int observable_sqlite_bind_blob_copy(sqlite3_stmt *statement, int index,
                                                   const void *bytes, int count) {
  return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

/// Like observable_sqlite_bind_blob_copy, for UTF-8 text.
static inline int observable_sqlite_bind_text_copy(sqlite3_stmt *statement, int index,
                                                   const char *text, int count) {
  return sqlite3_bind_text(statement, index, text, count, SQLITE_TRANSIENT);
}

// Turns off SQLite's count of the memory it holds, which takes a process-wide mutex on every
// allocation; nothing reads it. Works only before SQLite is first used in the process (it
// answers SQLITE_MISUSE after, changing nothing); sqlite3_config is variadic, which Swift cannot
// call.
static inline int observable_sqlite_stop_memory_count(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
