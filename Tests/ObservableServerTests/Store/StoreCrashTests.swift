import Foundation
import Glibc
import TestSupport
import Testing

/// The server killed with SIGKILL at random moments while a client publishes retained values
/// over 1,000 topics, and started again on the same store.
///
/// After every restart the store holds exactly what publishes 0..<P of the round left, for
/// some P (the store commits in order, so a crash keeps a prefix): with `--fsync always`, P
/// covers every publish that was answered; with `batch`, at most the store's queue limit plus
/// the batch being written (2 × 65,536) answered ones are missing. Each round publishes up to
/// 20,000 values (the 100,000 over 20 rounds would take minutes in a debug build).
@Suite("The store after SIGKILL", .serialized, .timeLimit(.minutes(5)))
struct StoreCrashTests {
  static let topics = 1_000

  @Test func withFsyncAlwaysEveryAnsweredValueSurvives() throws {
    try crashRounds(fsync: "always", rounds: 20, allowedLoss: 0)
  }

  @Test func withFsyncBatchTheLossStaysWithinTheQueue() throws {
    try crashRounds(fsync: "batch", rounds: 5, allowedLoss: 2 * 65_536)
  }

  private func crashRounds(fsync: String, rounds: Int, allowedLoss: Int) throws {
    try StoreServer.withDirectory { directory in
      // Every topic gets a value first, so that each restart has all of them to read.
      var server = try StoreServer(directory: directory, fsync: fsync)
      let first = try RetainedPublisher(
        port: server.port, base: 0, count: Self.topics, topics: Self.topics)
      #expect(first.join())
      #expect(first.acknowledged.value == Self.topics)
      // With `batch` the replies come before the writes: wait until they are committed.
      let watcher = try LineClient(port: server.port)
      #expect(
        try eventually(timeout: .seconds(10)) { try watcher.stats()["store_queued_changes"] == 0 })
      watcher.close()
      var cutShort = 0
      for round in 1...rounds {
        let base = round * 1_000_000
        let publisher = try RetainedPublisher(
          port: server.port, base: base, count: 20_000, topics: Self.topics)
        #expect(eventually(timeout: .seconds(10)) { publisher.acknowledged.value > 0 })
        usleep(UInt32.random(in: 0...100_000))
        server.kill()
        #expect(publisher.join())
        let answered = publisher.acknowledged.value
        if answered < 20_000 { cutShort += 1 }

        server = try StoreServer(directory: directory, fsync: fsync)
        let values = try server.retained(matching: "k.>", expecting: Self.topics)
        try #require(values.count == Self.topics, "round \(round): \(values.count) topics")
        let kept =
          values.values.compactMap(Int.init).filter { $0 >= base }.map { $0 - base + 1 }
          .max() ?? 0
        #expect(
          kept + allowedLoss >= answered, "round \(round): kept \(kept) of \(answered) answered")
        for topic in 0..<Self.topics {
          let value = values["k.\(topic)"].flatMap(Int.init)
          if let index = RetainedPublisher.expectedIndex(
            topic: topic, kept: kept, topics: Self.topics)
          {
            #expect(value == base + index, "round \(round), k.\(topic)")
          } else {
            #expect(
              value.map { $0 < base } == true,
              "round \(round), k.\(topic): \(String(describing: value))")
          }
        }
      }
      // The kill came while values were still being published, not after the last.
      #expect(cutShort > 0)
      server.terminate()
    }
  }
}
