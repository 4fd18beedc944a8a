// Runs a program with a shorter EEVDF slice (Linux 6.12 and later), which its threads inherit:
// the experiment of Docs/performance.md's "Which stage holds the p99". util-linux 2.41's
// `chrt --other --sched-runtime NS 0 PROGRAM` does the same; Debian 12 ships 2.38.
// usage: cc -O2 -o /tmp/with-slice Docs/bench/with-slice.c
//        /tmp/with-slice NANOSECONDS PROGRAM [ARGUMENTS...]
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct sched_attr_v1 {
  uint32_t size, sched_policy;
  uint64_t sched_flags;
  int32_t sched_nice;
  uint32_t sched_priority;
  uint64_t sched_runtime, sched_deadline, sched_period;
  uint32_t sched_util_min, sched_util_max;
};

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s NANOSECONDS PROGRAM [ARGUMENTS...]\n", argv[0]);
    return 2;
  }
  struct sched_attr_v1 attr;
  memset(&attr, 0, sizeof attr);
  // Keeps the policy and nice value the program would have had.
  if (syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) != 0) {
    perror("sched_getattr");
    return 1;
  }
  attr.size = sizeof attr;
  attr.sched_flags = 0;
  attr.sched_runtime = strtoull(argv[1], NULL, 10);
  if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0) {
    perror("sched_setattr");
    return 1;
  }
  execvp(argv[2], argv + 2);
  perror(argv[2]);
  return 127;
}
