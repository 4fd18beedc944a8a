#!/usr/bin/env python3
"""Splits each value's latency in a latency round into stages, from a scheduler trace.

Reads what Docs/bench/tail-stages.sh recorded (perf script text and the thread ids) and, for
every value the bench's publisher wrote, finds: the server thread's first wake-up after the
write ("pickup"), the end of the sends of that turn ("sending"), and the bench reader's tenth
successful read after the pickup ("to reader", ten subscribers). For each stage it also sums
the time the thread concerned was runnable without a CPU (woken or preempted, not yet switched
in), and names the task that held the CPU until the thread got it. Prints the stages of the
fastest half and of the slowest 1 %, so the stage that holds the p99 shows.

usage: tail-stages.py OUT   (OUT.txt and OUT.pids from tail-stages.sh)
"""
import bisect
import collections
import re
import sys

LINE = re.compile(r'^\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s+(.*)$')
PUBLISH_CALLS = {'1', '20', '44', '46'}  # write, writev, sendto, sendmsg
WAIT_CALLS = {'232', '281', '441'}  # epoll_wait, epoll_pwait, epoll_pwait2
SEND_CALLS = {'1', '20', '44', '46', '426'}  # the above and io_uring_enter
READ_CALLS = {'0', '45'}  # read, recvfrom


def load(out):
    lines = open(out + '.pids').read().split('\n')
    server = int(lines[0].split()[3])
    events = []
    for line in open(out + '.txt'):
        match = LINE.match(line)
        if match:
            comm, tid, cpu, time, event, rest = match.groups()
            events.append((float(time), int(tid), int(cpu), event, rest, comm))
    return server, events


def threads(events, server):
    """The publisher (most sends), the reader (most polls) and the server's busiest thread."""
    calls = collections.Counter()
    for _, tid, _, event, rest, comm in events:
        if event == 'raw_syscalls:sys_enter':
            calls[(tid, rest.split()[1], comm)] += 1
    def busiest(numbers, exclude=(), comm_prefix=None):
        counts = collections.Counter()
        for (tid, number, comm), count in calls.items():
            if number in numbers and tid not in exclude:
                if comm_prefix is None or comm.startswith(comm_prefix):
                    counts[tid] += count
        return counts.most_common(1)[0][0]
    reader = busiest({'7'})
    publisher = busiest(PUBLISH_CALLS, exclude={reader}, comm_prefix='observable-benc')
    loop = busiest(WAIT_CALLS, exclude={reader, publisher})
    return publisher, reader, loop


def main():
    out = sys.argv[1]
    server, events = load(out)
    publisher, reader, loop = threads(events, server)
    watched = {publisher, reader, loop}
    runnable_since = {}
    running_since, runs = {}, []  # the server thread's spells on a CPU
    waits = {tid: [] for tid in watched}  # (from, to, the task that held the CPU)
    publishes, wakes, sends, reads = [], [], [], []
    for time, tid, cpu, event, rest, comm in events:
        if event == 'sched:sched_wakeup':
            woken = int(re.search(r' pid=(\d+)', rest).group(1))
            if woken in watched:
                runnable_since.setdefault(woken, time)
        elif event == 'sched:sched_switch':
            previous = int(re.search(r'prev_pid=(\d+)', rest).group(1))
            state = re.search(r'prev_state=(\S+)', rest).group(1)
            following = int(re.search(r'next_pid=(\d+)', rest).group(1))
            if previous == loop and previous in running_since:
                runs.append(time - running_since.pop(previous))
            if following == loop:
                running_since[loop] = time
            if previous in watched and state.startswith('R'):
                runnable_since[previous] = time  # preempted: runnable, without a CPU
            if following in watched and following in runnable_since:
                holder = re.search(r'prev_comm=(.+?) prev_pid', rest).group(1)
                waits[following].append((runnable_since.pop(following), time, holder))
        elif event == 'raw_syscalls:sys_enter':
            if tid == publisher and rest.split()[1] in PUBLISH_CALLS:
                publishes.append(time)
        elif event == 'raw_syscalls:sys_exit':
            number, result = rest.split()[1], int(rest.split()[-1])
            if tid == loop and number in WAIT_CALLS and result > 0:
                wakes.append(time)
            elif tid == loop and number in SEND_CALLS:
                sends.append(time)
            elif tid == reader and number in READ_CALLS and result > 0:
                reads.append(time)

    def waited(tid, start, end):
        total, holders = 0.0, collections.Counter()
        for since, until, holder in waits[tid]:
            overlap = min(until, end) - max(since, start)
            if overlap > 0:
                total += overlap
                holders[holder] += overlap
        return total, holders

    def first_after(times, moment):
        index = bisect.bisect_left(times, moment)
        return times[index] if index < len(times) else None

    rows = []
    for written in publishes:
        woke = first_after(wakes, written)
        if woke is None:
            break
        next_wake = first_after(wakes, woke + 1e-9) or float('inf')
        first, last = bisect.bisect_left(sends, woke), bisect.bisect_left(sends, next_wake)
        index = bisect.bisect_left(reads, woke)
        if last <= first:
            continue
        if index + 9 >= len(reads):
            break
        sent, arrived = sends[last - 1], reads[index + 9]
        loop_wait, loop_holders = waited(loop, written, sent)
        reader_wait, reader_holders = waited(reader, sent, arrived)
        rows.append((arrived - written, woke - written, sent - woke, arrived - sent,
                     loop_wait, reader_wait, loop_holders, reader_holders))
    rows.sort(key=lambda row: row[0])
    count = len(rows)
    if count < 100:
        sys.exit(f'{out}: only {count} values matched; was the recording inside the publishing?')

    def us(seconds):
        return f'{seconds * 1e6:.0f}'

    def mean(values):
        return sum(values) / max(1, len(values))

    print(f'{out}: {count} values; end to end p50 {us(rows[count // 2][0])} µs,'
          f' p99 {us(rows[int(count * 0.99)][0])} µs, p99.9 {us(rows[int(count * 0.999)][0])} µs')
    for name, part in (('fastest half', rows[:count // 2]), ('slowest 1 %', rows[int(count * 0.99):])):
        print(f'  {name}: {us(mean([r[0] for r in part]))} µs = pickup {us(mean([r[1] for r in part]))}'
              f' + sending {us(mean([r[2] for r in part]))}'
              f' (the server thread waited for a CPU {us(mean([r[4] for r in part]))} of these two)'
              f' + to reader {us(mean([r[3] for r in part]))}'
              f' (the reader waited for a CPU {us(mean([r[5] for r in part]))})')
    runs.sort()
    if runs:
        print(f'  the server thread ran {len(runs)} times: p50 {us(runs[len(runs) // 2])} µs,'
              f' p99 {us(runs[int(len(runs) * 0.99)])} µs, longest {us(runs[-1])} µs on a CPU at once')
    slow = rows[int(count * 0.99):]
    for label, column in (('server thread', 6), ('reader', 7)):
        holders = collections.Counter()
        for row in slow:
            holders.update(row[column])
        total = sum(holders.values()) or 1
        named = ', '.join(f'{holder} {share / total * 100:.0f} %' for holder, share in holders.most_common(4))
        print(f'  slowest 1 %, the {label} waited for the CPU after: {named or "nobody"}')


main()
