// Linux headers that Swift's Glibc module does not bring in.
#ifndef OBSERVABLE_SERVER_CLINUX_H
#define OBSERVABLE_SERVER_CLINUX_H

#include <malloc.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#include "CLinuxSendRing.h"

/// pipe2(fds, O_CLOEXEC): both ends closed on exec, set atomically so that a process spawned
/// by another thread at the same moment cannot inherit them. Glibc only declares pipe2 under
/// _GNU_SOURCE, which the Swift module does not define.
int observable_pipe_cloexec(int fds[2]);

/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC), likewise a GNU extension.
int observable_accept_nonblocking(int fd);

/// pthread_setname_np on the calling thread (at most 15 bytes), likewise a GNU extension.
void observable_name_current_thread(const char *name);

/// pidfd_open(pid, 0) through syscall(2), which glibc before 2.36 does not wrap: a descriptor
/// that becomes readable when the process exits, so an event loop can watch for the exit.
/// Returns -1 with errno set (ENOSYS on old kernels, EPERM under some seccomp profiles).
int observable_pidfd_open(pid_t pid);

#endif
