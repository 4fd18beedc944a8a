// The child of the store's durability test: opens the store in the directory given, in the
// fsync mode given, and writes retained values (and history entries) until it is killed.
// Each value's number goes to standard output once its completion ran, in one write(2) of
// less than PIPE_BUF bytes, so a line the parent reads is whole and was acknowledged.
//
//   observable-store-writer DIRECTORY always|batch|off
import Glibc
import ObservableStore

/// Writes `text` to descriptor `descriptor` in one write(2).
func say(_ text: String, to descriptor: Int32) {
  let bytes = Array(text.utf8)
  _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let mode = FsyncMode(rawValue: arguments[2]) else {
  say("usage: observable-store-writer DIRECTORY always|batch|off\n", to: 2)
  exit(2)
}
let store: ObservableStore
do {
  store = try ObservableStore.open(directory: arguments[1], fsync: mode, queueLimit: 256).store
} catch {
  say("observable-store-writer: \(error)\n", to: 2)
  exit(1)
}
// Bounded, so that a child its parent forgot cannot run for ever.
let deadline = ContinuousClock.now + .seconds(60)
var number: UInt64 = 1
while ContinuousClock.now < deadline {
  let value = Array("\(number)".utf8)
  let changes: [StoreChange] = [
    .retain(RetainedValue(stream: "topic.\(number % 1_000)", value: value)),
    .appendHistory(HistoryEntry(topic: "history", sequence: number, value: value, timestamp: 0)),
  ]
  let written = number
  let outcome = store.enqueue(changes) { outcome in
    guard case .success = outcome else { return }
    say("\(written)\n", to: 1)
  }
  if outcome == .queued {
    number += 1
  } else {
    usleep(200)
  }
}
store.close()
