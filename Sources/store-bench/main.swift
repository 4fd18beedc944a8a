// Retained writes per second into the store, for each fsync mode, on the disk that holds
// DIRECTORY (a tmpfs makes every mode the same: its fsync does nothing).
//
//   store-bench DIRECTORY [COUNT [TOPICS]]
//
// Pipelined: COUNT writes over 1,000 topics enqueued as fast as the queue takes them, as many
// clients publishing at once would; the figure is writes whose completion ran per second.
// Serial: one write at a time, each waiting for its completion, as a single client of a
// server with `--fsync always` waits for each reply; its figure is the commit's latency.
// Restart, with TOPICS: a store of TOPICS retained topics is written, closed and opened again;
// the figure is the open's time (the check and the load) and the file's size.
import Glibc
import ObservableStore
import Synchronization

let completed = Atomic<Int>(0)

/// Opens a new store in `directory`, runs `body` on it and closes and deletes it.
func withStore(
  in directory: String, _ mode: FsyncMode, _ body: (ObservableStore) -> Void
) -> StoreStatistics {
  let path = directory + "/store-bench-\(mode)"
  do {
    let store = try ObservableStore.open(directory: path, fsync: mode).store
    body(store)
    let statistics = store.statistics
    store.close()
    unlink(path + "/observable.sqlite3")
    rmdir(path)
    return statistics
  } catch {
    print("store-bench: \(error)")
    exit(1)
  }
}

/// One retained value of about 40 bytes, as a small JSON delivery line, to one of `topics`.
func change(_ number: Int, topics: Int = 1_000) -> [StoreChange] {
  let line = #"{"stream":"topic.\#(number % topics)","value":\#(number)}"# + "\n"
  return [.retain(RetainedValue(stream: "topic.\(number % topics)", value: Array(line.utf8)))]
}

/// Writes `topics` retained topics, closes the store, opens it again and prints how long that
/// took and how big the file is.
func restart(in directory: String, topics: Int) {
  let path = directory + "/store-bench-restart"
  defer {
    unlink(path + "/observable.sqlite3")
    rmdir(path)
  }
  do {
    let store = try ObservableStore.open(directory: path, fsync: .off).store
    var number = 0
    while number < topics {
      if store.enqueue(change(number, topics: topics)) == .queued {
        number += 1
      } else {
        sched_yield()
      }
    }
    store.close()
    let start = ContinuousClock.now
    let (again, contents) = try ObservableStore.open(directory: path, fsync: .always)
    let elapsed = seconds(since: start)
    again.close()
    var info = stat()
    _ = stat(path + "/observable.sqlite3", &info)
    print(
      "restart with \(contents.retained.count) retained topics: open, check and load \(elapsed) s;"
        + " file \(info.st_size / 1_048_576) MiB")
  } catch {
    print("store-bench: \(error)")
    exit(1)
  }
}

/// Waits, spinning, until `count` completions ran.
func waitFor(_ count: Int) {
  while completed.load(ordering: .acquiring) < count { sched_yield() }
}

/// Seconds since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  print("usage: store-bench DIRECTORY [COUNT]")
  exit(2)
}
let directory = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
let serialCount = max(1, count / 50)
let topics = arguments.count > 3 ? Int(arguments[3]) : nil
print("mode    pipelined/s  transactions  serial/s  (pipelined \(count), serial \(serialCount))")
for mode in FsyncMode.allCases {
  completed.store(0, ordering: .relaxed)
  var start = ContinuousClock.now
  let statistics = withStore(in: directory, mode) { store in
    var number = 0
    while number < count {
      let queued = store.enqueue(change(number)) { _ in
        completed.add(1, ordering: .releasing)
      }
      if queued == .queued { number += 1 } else { sched_yield() }
    }
    waitFor(count)
  }
  let pipelined = Double(count) / seconds(since: start)
  completed.store(0, ordering: .relaxed)
  start = ContinuousClock.now
  _ = withStore(in: directory, mode) { store in
    for number in 0..<serialCount {
      store.enqueue(change(number)) { _ in completed.add(1, ordering: .releasing) }
      waitFor(number + 1)
    }
  }
  let serial = Double(serialCount) / seconds(since: start)
  print(
    mode.rawValue + String(repeating: " ", count: 8 - mode.rawValue.count) + "\(Int(pipelined))"
      + "  \(statistics.transactions)  \(Int(serial))")
}
if let topics { restart(in: directory, topics: topics) }
