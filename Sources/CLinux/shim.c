// pipe2 is a GNU extension; the header the Swift module sees keeps to the standard names.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "CLinux.h"

#include <sys/socket.h>
#include <sys/syscall.h>

int observable_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int observable_accept_nonblocking(int fd) {
  return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

void observable_name_current_thread(const char *name) {
  char truncated[16];
  strncpy(truncated, name, sizeof truncated - 1);
  truncated[sizeof truncated - 1] = 0;
  pthread_setname_np(pthread_self(), truncated);
}

int observable_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }
