import Testing

@testable import ObservableServer
@testable import ObservableTransport

/// The connection's state machine alone: each event moves it as the table on
/// ``ConnectionState`` says, an event that does not apply changes nothing, and the close
/// happens once, whatever came before it.
@Suite(.timeLimit(.minutes(1)))
struct ConnectionStateMachineTests {
  /// One event a connection sees, as a ``ConnectionLifecycle`` method.
  enum Event: CaseIterable {
    case endOfStream, drain, farewellDrain, finish, halfClose, close

    /// Applies the event; returns whether the lifecycle took it.
    func apply(to lifecycle: inout ConnectionLifecycle) -> Bool {
      switch self {
      case .endOfStream: lifecycle.peerSentEndOfStream()
      case .drain: lifecycle.drain()
      case .farewellDrain: lifecycle.drainAfterFarewell()
      case .finish: lifecycle.finish("finish")
      case .halfClose: lifecycle.sendEndOfStream()
      case .close: lifecycle.close("close")
      }
    }
  }

  /// A lifecycle to which a test applies events one at a time.
  final class Machine {
    var lifecycle = ConnectionLifecycle()

    /// A machine in the state `events` lead to from open.
    init(after events: [Event] = []) {
      for event in events { _ = event.apply(to: &lifecycle) }
    }

    var state: ConnectionState { lifecycle.state }

    /// Applies `event`; returns whether the lifecycle took it.
    func on(_ event: Event) -> Bool { event.apply(to: &lifecycle) }

    /// Finishes for `reason`; returns whether the lifecycle took it.
    func finish(_ reason: String) -> Bool { lifecycle.finish(reason) }
  }

  /// Every state the machine reaches, with the events that lead there from open.
  static let reachable: [[Event]] = [
    [], [.endOfStream], [.finish, .endOfStream], [.drain], [.drain, .halfClose], [.finish],
    [.finish, .halfClose], [.drain, .finish], [.endOfStream, .finish], [.close],
  ]

  @Test("a connection's client closing first: replies go out, then the close")
  func peerClosesFirst() {
    let machine = Machine()
    #expect(machine.state == .open)
    #expect(machine.on(.endOfStream))
    #expect(machine.state == .peerClosed(finishing: nil))
    #expect(machine.lifecycle.peerClosed)
    #expect(!machine.lifecycle.watchesWritabilityOnDemand)
    // A session timer may still finish it: the close then gives that reason.
    #expect(machine.finish("no token in time"))
    #expect(machine.state == .peerClosed(finishing: "no token in time"))
    #expect(machine.lifecycle.finishReason == "no token in time")
    // It reads nothing more, so it never half-closes or sees a second end of stream.
    #expect(!machine.on(.halfClose))
    #expect(!machine.on(.endOfStream))
    #expect(machine.on(.close))
    #expect(machine.state == .closed(reason: "close"))
  }

  @Test("a finish half-closes once, and the first reason holds")
  func finishHalfClosesOnce() {
    let machine = Machine()
    #expect(machine.finish("answered HTTP 200"))
    #expect(!machine.finish("websocket closed by peer"))
    #expect(machine.state == .finishing(reason: "answered HTTP 200", endOfStreamSent: false))
    #expect(!machine.lifecycle.watchesWritabilityOnDemand)
    #expect(machine.on(.halfClose))
    #expect(!machine.on(.halfClose))
    #expect(machine.state == .finishing(reason: "answered HTTP 200", endOfStreamSent: true))
    // The client's end of stream after the half-close: the connection closes.
    #expect(!machine.on(.endOfStream))
    #expect(machine.lifecycle.finishReason == "answered HTTP 200")
  }

  @Test("a client closing before a finish's half-close still gets the last lines")
  func peerClosesDuringFinish() {
    let machine = Machine()
    #expect(machine.finish("wrong token"))
    #expect(machine.on(.endOfStream))
    #expect(machine.state == .peerClosed(finishing: "wrong token"))
    #expect(!machine.finish("another"))
  }

  @Test("a drain reads no requests, half-closes once, and a finish takes it over")
  func drain() {
    let machine = Machine()
    #expect(machine.on(.drain))
    #expect(!machine.on(.drain))
    #expect(!machine.on(.farewellDrain))
    #expect(machine.state == .draining(endOfStreamSent: false))
    #expect(machine.lifecycle.watchesWritabilityOnDemand)
    #expect(machine.lifecycle.finishReason == nil)
    #expect(machine.on(.halfClose))
    #expect(!machine.on(.halfClose))
    // A finish during the drain keeps the half-close already sent.
    #expect(machine.finish("websocket closed by peer"))
    #expect(
      machine.state == .finishing(reason: "websocket closed by peer", endOfStreamSent: true))
    // The end of stream after the half-close closes.
    #expect(!machine.on(.endOfStream))
  }

  @Test("a shutdown's drain of a connection already ending keeps its state and reason")
  func drainWhileEnding() {
    let peerClosed = Machine(after: [.endOfStream])
    #expect(peerClosed.on(.drain))
    #expect(peerClosed.state == .peerClosed(finishing: nil))
    let finishing = Machine(after: [.finish])
    #expect(finishing.on(.drain))
    #expect(finishing.state == .finishing(reason: "finish", endOfStreamSent: false))
  }

  @Test("only an open connection drains after a slow consumer's farewell")
  func farewellDrain() {
    for events in Self.reachable {
      let machine = Machine(after: events)
      let start = machine.state
      let accepted = machine.on(.farewellDrain)
      #expect(accepted == (start == .open), "after \(events)")
      #expect(machine.state == (accepted ? .draining(endOfStreamSent: false) : start))
    }
  }

  @Test("every state closes exactly once, and no event leaves closed")
  func closesOnce() {
    for events in Self.reachable {
      let machine = Machine(after: events)
      let wasClosed = machine.lifecycle.isClosed
      #expect(machine.on(.close) != wasClosed, "after \(events)")
      #expect(machine.lifecycle.isClosed)
      let closed = machine.state
      for event in Event.allCases {
        #expect(!machine.on(event), "\(event) after \(events)")
      }
      #expect(machine.state == closed, "after \(events)")
      #expect(machine.lifecycle.finishReason == nil)
    }
  }

  @Test("an event a state does not take leaves it as it was")
  func refusedEventsChangeNothing() {
    for events in Self.reachable {
      for event in Event.allCases {
        let machine = Machine(after: events)
        let start = machine.state
        if !machine.on(event) {
          #expect(machine.state == start, "\(event) after \(events)")
        }
      }
    }
  }

  @Test("no sequence of events but a close reaches closed, and the close happens once")
  func onlyCloseCloses() {
    let others = Event.allCases.filter { $0 != .close }
    // Every sequence of three events from every state reached without a close.
    for events in Self.reachable where !events.contains(.close) {
      for first in others {
        for second in others {
          for third in others {
            let machine = Machine(after: events + [first, second, third])
            #expect(!machine.lifecycle.isClosed, "after \(events + [first, second, third])")
            #expect(machine.on(.close))
            #expect(!machine.on(.close))
          }
        }
      }
    }
  }
}
