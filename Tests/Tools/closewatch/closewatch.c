/*
 * closewatch: an LD_PRELOAD wrapper around close(2) that finds stray closes in a test run.
 *
 * A close that fails with EBADF is a double close or the close of a stale number; when it
 * does not fail, it closed a descriptor someone else had been given meanwhile. Each EBADF
 * close is logged with its backtrace and with the backtrace of the last successful close of
 * the same number, which is the other half of a double close. Logs go to
 * $CLOSEWATCH_LOG.<pid> (default /tmp/closewatch.<pid>), made only when something is found;
 * with CLOSEWATCH_ABORT set, the process aborts at the first one instead.
 *
 * Build and use through closewatch.sh, which also symbolizes the logs.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TRACKED_DESCRIPTORS 65536
#define DEPTH 24

/* Racy between threads by design: a torn entry only garbles one log's second half. */
static void *last_close[TRACKED_DESCRIPTORS][DEPTH];
static int last_depth[TRACKED_DESCRIPTORS];
static int last_thread[TRACKED_DESCRIPTORS];
static int (*real_close)(int);
static int log_fd = -1;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void write_frames(void **frames, int count) {
  for (int i = 0; i < count; i++) {
    Dl_info info;
    if (dladdr(frames[i], &info) && info.dli_fname) {
      dprintf(log_fd, "    #%d %s+0x%lx %s\n", i, info.dli_fname,
              (unsigned long)((char *)frames[i] - (char *)info.dli_fbase),
              info.dli_sname ? info.dli_sname : "?");
    } else {
      dprintf(log_fd, "    #%d %p\n", i, frames[i]);
    }
  }
}

/* Opens the log above the numbers tests use, so the log itself never takes one of theirs. */
static void open_log(void) {
  if (log_fd >= 0) return;
  const char *base = getenv("CLOSEWATCH_LOG");
  char path[512];
  snprintf(path, sizeof path, "%s.%d", base ? base : "/tmp/closewatch", getpid());
  int opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (opened < 0) return;
  log_fd = fcntl(opened, F_DUPFD_CLOEXEC, 4000);
  real_close(opened);
}

int close(int fd) {
  if (!real_close) real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
  if (fd >= 0 && fd == log_fd) {
    errno = EBADF;
    return -1;
  }
  void *frames[DEPTH];
  int depth = backtrace(frames, DEPTH);
  int result = real_close(fd);
  int saved = errno;
  int thread = (int)syscall(SYS_gettid);
  if (result == -1 && saved == EBADF) {
    pthread_mutex_lock(&log_lock);
    open_log();
    if (log_fd >= 0) {
      dprintf(log_fd, "EBADF close(%d) pid %d tid %d\n", fd, getpid(), thread);
      write_frames(frames, depth);
      if (fd >= 0 && fd < TRACKED_DESCRIPTORS && last_depth[fd] > 0) {
        dprintf(log_fd, "  last successful close of %d by tid %d:\n", fd, last_thread[fd]);
        write_frames(last_close[fd], last_depth[fd]);
      }
    }
    pthread_mutex_unlock(&log_lock);
    if (getenv("CLOSEWATCH_ABORT")) abort();
  } else if (result == 0 && fd >= 0 && fd < TRACKED_DESCRIPTORS) {
    memcpy(last_close[fd], frames, sizeof(void *) * (size_t)depth);
    last_depth[fd] = depth;
    last_thread[fd] = thread;
  }
  errno = saved;
  return result;
}
