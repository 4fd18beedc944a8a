// A minimal io_uring for batched socket sends, on raw system calls (no liburing).
#ifndef OBSERVABLE_SERVER_CLINUX_SEND_RING_H
#define OBSERVABLE_SERVER_CLINUX_SEND_RING_H

/// One io_uring: its submission and completion rings, mapped into this process.
/// Used by one thread at a time.
typedef struct observable_send_ring observable_send_ring;

/// Sets up a ring with room for `entries` submissions. Returns NULL with errno set when the
/// kernel has no io_uring (ENOSYS), forbids it (EPERM under a seccomp profile, or
/// kernel.io_uring_disabled), or lacks memory.
observable_send_ring *observable_send_ring_open(unsigned entries);

/// Unmaps the rings and closes the descriptor.
void observable_send_ring_close(observable_send_ring *ring);

/// How many sends one submission may hold.
unsigned observable_send_ring_capacity(const observable_send_ring *ring);

/// Queues sendmsg(fd, message, MSG_DONTWAIT | MSG_NOSIGNAL), `message` a `struct msghdr`, to
/// be submitted later. Returns 0, or -1 when the submission ring is full. `message`, its
/// iovecs and the bytes they point at must stay valid until its completion.
int observable_send_ring_prepare_sendmsg(
    observable_send_ring *ring, int fd, const void *message, unsigned long long tag);

/// Submits the queued sends, at most `most` of them (the rest are withdrawn, as if the kernel
/// had refused them; a test uses this to stand in for such a kernel), in one io_uring_enter,
/// and waits until every send taken has completed (with MSG_DONTWAIT they complete at once: a
/// full socket answers -EAGAIN, it does not wait). Sets `*taken` to how many the kernel took,
/// in the order they were prepared; the others never complete. Returns 0, or -errno when the
/// kernel refused the rest or waiting failed: sends taken may then complete later, and their
/// bytes must stay valid until they do.
int observable_send_ring_submit_and_wait(
    observable_send_ring *ring, unsigned most, unsigned *taken);

/// Takes the next completion: its tag and its result (bytes sent, or -errno). Returns 1, or 0
/// when none is left.
int observable_send_ring_next_completion(
    observable_send_ring *ring, unsigned long long *tag, int *result);

/// IORING_OP_SEND, the operation batched sends use (kernel 5.6 and later).
unsigned char observable_send_ring_send_operation(void);

/// IORING_OP_SENDMSG, the operation gathered sends use (kernel 5.3 and later).
unsigned char observable_send_ring_sendmsg_operation(void);

/// IORING_OP_LAST of the headers this was built with: one past the last operation they name.
unsigned char observable_send_ring_known_operations(void);

/// Asks the kernel which operations the ring supports (IORING_REGISTER_PROBE). Returns the
/// index in `operations` of the first one it lacks, `count` when it has them all, or -errno
/// when it cannot tell (EINVAL before kernel 5.6, which has no probe and no IORING_OP_SEND).
int observable_send_ring_first_unsupported(
    observable_send_ring *ring, const unsigned char *operations, unsigned count);

#endif
