// io_uring on raw system calls: only what batched sends need, so the server needs no liburing.
#define _GNU_SOURCE
#include <errno.h>
#include <linux/io_uring.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "CLinuxSendRing.h"

struct observable_send_ring {
  int fd;
  unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
  unsigned *cq_head, *cq_tail, *cq_mask;
  struct io_uring_sqe *sqes;
  struct io_uring_cqe *cqes;
  void *sq_map, *cq_map;
  size_t sq_map_size, cq_map_size, sqes_size;
  unsigned entries;
  // Prepared but not yet submitted, and submitted but not yet taken.
  unsigned queued, outstanding;
};

static int ring_setup(unsigned entries, struct io_uring_params *params, unsigned flags) {
  memset(params, 0, sizeof *params);
  params->flags = flags;
  return (int)syscall(__NR_io_uring_setup, entries, params);
}

static int ring_enter(int fd, unsigned submit, unsigned wait, unsigned flags) {
  return (int)syscall(__NR_io_uring_enter, fd, submit, wait, flags, NULL, 0);
}

observable_send_ring *observable_send_ring_open(unsigned entries) {
  struct io_uring_params params;
  // SUBMIT_ALL keeps submitting after a failed send; COOP_TASKRUN spares the interrupt that
  // would run completion work. Kernels before 5.19 refuse these flags, so try without them.
  int fd = ring_setup(entries, &params, IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN);
  if (fd < 0 && errno == EINVAL) fd = ring_setup(entries, &params, 0);
  if (fd < 0) return NULL;
  observable_send_ring *ring = calloc(1, sizeof *ring);
  if (ring == NULL) {
    close(fd);
    errno = ENOMEM;
    return NULL;
  }
  ring->fd = fd;
  ring->entries = params.sq_entries;
  ring->sq_map_size = params.sq_off.array + params.sq_entries * sizeof(unsigned);
  ring->cq_map_size = params.cq_off.cqes + params.cq_entries * sizeof(struct io_uring_cqe);
  int single = (params.features & IORING_FEAT_SINGLE_MMAP) != 0;
  if (single && ring->cq_map_size > ring->sq_map_size) ring->sq_map_size = ring->cq_map_size;
  ring->sq_map = mmap(NULL, ring->sq_map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                      fd, IORING_OFF_SQ_RING);
  if (ring->sq_map == MAP_FAILED) goto fail;
  if (single) {
    ring->cq_map = ring->sq_map;
  } else {
    ring->cq_map = mmap(NULL, ring->cq_map_size, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
    if (ring->cq_map == MAP_FAILED) goto fail;
  }
  ring->sqes_size = params.sq_entries * sizeof(struct io_uring_sqe);
  ring->sqes = mmap(NULL, ring->sqes_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
                    IORING_OFF_SQES);
  if (ring->sqes == MAP_FAILED) goto fail;
  char *sq = ring->sq_map, *cq = ring->cq_map;
  ring->sq_head = (unsigned *)(sq + params.sq_off.head);
  ring->sq_tail = (unsigned *)(sq + params.sq_off.tail);
  ring->sq_mask = (unsigned *)(sq + params.sq_off.ring_mask);
  ring->sq_array = (unsigned *)(sq + params.sq_off.array);
  ring->cq_head = (unsigned *)(cq + params.cq_off.head);
  ring->cq_tail = (unsigned *)(cq + params.cq_off.tail);
  ring->cq_mask = (unsigned *)(cq + params.cq_off.ring_mask);
  ring->cqes = (struct io_uring_cqe *)(cq + params.cq_off.cqes);
  return ring;
fail:;
  int saved = errno;
  observable_send_ring_close(ring);
  errno = saved;
  return NULL;
}

void observable_send_ring_close(observable_send_ring *ring) {
  if (ring == NULL) return;
  if (ring->sqes != NULL && ring->sqes != MAP_FAILED) munmap(ring->sqes, ring->sqes_size);
  if (ring->cq_map != NULL && ring->cq_map != MAP_FAILED && ring->cq_map != ring->sq_map)
    munmap(ring->cq_map, ring->cq_map_size);
  if (ring->sq_map != NULL && ring->sq_map != MAP_FAILED) munmap(ring->sq_map, ring->sq_map_size);
  close(ring->fd);
  free(ring);
}

unsigned observable_send_ring_capacity(const observable_send_ring *ring) { return ring->entries; }

// Queues one send-like operation on `fd`, to be submitted later; -1 when the ring is full.
static int ring_prepare(observable_send_ring *ring, unsigned char opcode, int fd,
                        const void *address, unsigned length, unsigned long long tag) {
  // Completions not yet taken must fit the completion ring (twice the submission ring).
  if (ring->queued + ring->outstanding >= ring->entries) return -1;
  unsigned tail = *ring->sq_tail + ring->queued;
  unsigned index = tail & *ring->sq_mask;
  struct io_uring_sqe *sqe = &ring->sqes[index];
  memset(sqe, 0, sizeof *sqe);
  sqe->opcode = opcode;
  sqe->fd = fd;
  sqe->addr = (unsigned long long)(unsigned long)address;
  sqe->len = length;
  // MSG_DONTWAIT makes a full socket fail the send with EAGAIN, as send(2) on a non-blocking
  // socket does, instead of the kernel waiting for room.
  sqe->msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL;
  sqe->user_data = tag;
  ring->sq_array[index] = index;
  ring->queued += 1;
  return 0;
}

int observable_send_ring_prepare_sendmsg(observable_send_ring *ring, int fd, const void *message,
                                         unsigned long long tag) {
  // One message: `len` counts msghdrs, the iovecs it names carry the bytes.
  return ring_prepare(ring, IORING_OP_SENDMSG, fd, message, 1, tag);
}

static unsigned ring_completions_ready(observable_send_ring *ring) {
  return __atomic_load_n(ring->cq_tail, __ATOMIC_ACQUIRE) - *ring->cq_head;
}

int observable_send_ring_submit_and_wait(observable_send_ring *ring, unsigned most,
                                         unsigned *taken) {
  unsigned submitting = ring->queued < most ? ring->queued : most;
  // Sends beyond `most` are withdrawn before the kernel sees them.
  ring->queued = 0;
  __atomic_store_n(ring->sq_tail, *ring->sq_tail + submitting, __ATOMIC_RELEASE);
  unsigned left = submitting;
  *taken = 0;
  while (left > 0) {
    int done = ring_enter(ring->fd, left, left, IORING_ENTER_GETEVENTS);
    // Taking none at all would loop for ever: treated as a refusal.
    if (done == 0) errno = EAGAIN;
    if (done <= 0) {
      if (done < 0 && errno == EINTR) continue;
      // Sends the kernel did not take are withdrawn: none of them will complete.
      __atomic_store_n(ring->sq_tail, *ring->sq_tail - left, __ATOMIC_RELEASE);
      return -errno;
    }
    left -= (unsigned)done;
    *taken += (unsigned)done;
    ring->outstanding += (unsigned)done;
  }
  while (ring_completions_ready(ring) < ring->outstanding) {
    unsigned missing = ring->outstanding - ring_completions_ready(ring);
    if (ring_enter(ring->fd, 0, missing, IORING_ENTER_GETEVENTS) < 0 && errno != EINTR)
      return -errno;
  }
  return 0;
}

int observable_send_ring_next_completion(observable_send_ring *ring, unsigned long long *tag,
                                         int *result) {
  unsigned head = *ring->cq_head;
  if (head == __atomic_load_n(ring->cq_tail, __ATOMIC_ACQUIRE)) return 0;
  struct io_uring_cqe *cqe = &ring->cqes[head & *ring->cq_mask];
  *tag = cqe->user_data;
  *result = cqe->res;
  __atomic_store_n(ring->cq_head, head + 1, __ATOMIC_RELEASE);
  if (ring->outstanding > 0) ring->outstanding -= 1;
  return 1;
}

unsigned char observable_send_ring_send_operation(void) { return IORING_OP_SEND; }

unsigned char observable_send_ring_sendmsg_operation(void) { return IORING_OP_SENDMSG; }

unsigned char observable_send_ring_known_operations(void) { return IORING_OP_LAST; }

int observable_send_ring_first_unsupported(observable_send_ring *ring,
                                           const unsigned char *operations, unsigned count) {
  // Room for every operation number a byte can name; the kernel fills those it knows and
  // requires the rest of the buffer zeroed.
  enum { probed = 256 };
  struct io_uring_probe *probe =
      calloc(1, sizeof *probe + probed * sizeof(struct io_uring_probe_op));
  if (probe == NULL) return -ENOMEM;
  if (syscall(__NR_io_uring_register, ring->fd, IORING_REGISTER_PROBE, probe, probed) < 0) {
    int error = errno;
    free(probe);
    return -error;
  }
  unsigned index = 0;
  for (; index < count; index++) {
    unsigned operation = operations[index];
    if (operation > probe->last_op) break;
    if ((probe->ops[operation].flags & IO_URING_OP_SUPPORTED) == 0) break;
  }
  free(probe);
  return (int)index;
}
