import Deflate
import Glibc

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A connection that has been greeted, authenticated and, if asked, compressed.
struct EstablishedConnection {
  let fd: Int32
  let reader: LineReader
  let writer: SocketWriter
  let serverSendsSub: Bool
  /// Whether the greeting lists `history`.
  let serverKeepsHistory: Bool
  /// The TLS session, when the connection has one.
  let tls: TLSSocket?
}

extension ClientCore {
  /// The connection thread: connect, read until the connection drops, wait, reconnect; until
  /// the client is closed or its first attempt fails.
  func run() {
    var attempt = 0
    var everConnected = false
    while !isClosed {
      setConnectionState(.connecting)
      var reason: String
      do {
        let connection = try establish()
        everConnected = true
        attempt = 0
        install(connection)
        reason = readUntilDropped(connection)
        tearDown(connection)
      } catch {
        guard everConnected else {
          // Closed before `connect()` throws, so its caller sees the final state.
          setConnectionState(.closed)
          finishFirstConnect(.failure(isClosed ? .closed : error))
          return
        }
        reason = "\(error)"
      }
      if isClosed { break }
      let delay = configuration.reconnect.delay(beforeAttempt: attempt)
      attempt += 1
      logger.warning(
        "connection lost; reconnecting",
        metadata: ["address": "\(address)", "reason": "\(reason)", "retry_in": "\(delay)"])
      setConnectionState(.disconnected(reason: reason, retryIn: delay))
      if let wake, PollWait.wait(fd: -1, events: 0, until: .now + delay, wake: wake) == .woken {
        break
      }
    }
    setConnectionState(.closed)
  }

  private func finishFirstConnect(_ result: Result<Void, ClientError>) {
    let waiting = state.withLock { state in
      defer { state.firstConnect = nil }
      return state.firstConnect
    }
    waiting?.resume(returning: result)
  }

  /// Connects, reads the greeting, and sends `auth` and `compress` as configured.
  private func establish() throws(ClientError) -> EstablishedConnection {
    guard let wake else { throw .closed }
    let fd = try SocketConnector.connect(
      to: address, timeout: configuration.connectTimeout, wake: wake)
    let deadline = ContinuousClock.now + configuration.connectTimeout
    let tls: TLSSocket?
    do {
      tls = try startTLS(on: fd, until: deadline)
    } catch {
      Glibc.close(fd)
      throw error
    }
    let reader = LineReader(
      fd: fd, wake: wake, maximumLineBytes: configuration.maximumLineBytes, tls: tls)
    let writer = SocketWriter(fd: fd, wake: wake, tls: tls)
    do {
      let greeting = try handshakeLine(reader, until: deadline)
      guard greeting.hello != nil else { throw ClientError.protocolViolation("no greeting") }
      if let signedToken = configuration.signedToken {
        writer.send(RequestLine.auth(signedToken: signedToken))
        _ = try handshakeLine(reader, until: deadline).result.get()
      } else if let token = configuration.token {
        writer.send(RequestLine.auth(token, user: configuration.user))
        _ = try handshakeLine(reader, until: deadline).result.get()
      } else if greeting.auth == "required" {
        throw ClientError.server(
          code: .unauthorized, message: "the server requires a token and none was given")
      }
      if configuration.compression {
        writer.send(RequestLine.compress)
        _ = try handshakeLine(reader, until: deadline).result.get()
        guard let inflate = try? InflateDecompressor(), let deflate = try? DeflateCompressor()
        else { throw ClientError.protocolViolation("zlib could not start") }
        try reader.startInflating(inflate)
        writer.startDeflating(deflate)
      }
      return EstablishedConnection(
        fd: fd, reader: reader, writer: writer,
        serverSendsSub: greeting.features?.contains("sub") ?? false,
        serverKeepsHistory: greeting.features?.contains("history") ?? false, tls: tls)
    } catch let error as ClientError {
      Glibc.close(fd)
      throw error
    } catch let end as LineReader.End {
      Glibc.close(fd)
      throw failure(end)
    } catch {
      Glibc.close(fd)
      throw .protocolViolation("\(error)")
    }
  }

  private func handshakeLine(
    _ reader: LineReader, until deadline: ContinuousClock.Instant
  ) throws -> ServerLine {
    let line = try reader.nextLine(until: deadline)
    guard let parsed = ServerLine.decode(line) else {
      throw ClientError.protocolViolation(
        "unreadable line: \(String(decoding: line, as: UTF8.self))")
    }
    return parsed
  }

  private func failure(_ end: LineReader.End) -> ClientError {
    switch end {
    case .closed(let reason), .invalid(let reason):
      .connectionFailed(address: address.description, reason: reason)
    case .timedOut:
      .connectionFailed(address: address.description, reason: "no greeting in time")
    case .woken: .closed
    }
  }

  /// Makes the connection the one requests go to, and subscribes every name with observers.
  private func install(_ connection: EstablishedConnection) {
    writer.withLock { writer in
      writer = connection.writer
      let lines = state.withLock { state in
        state.serverSendsSub = connection.serverSendsSub
        state.serverKeepsHistory = connection.serverKeepsHistory
        return state.book.names.map { state.subscribeRequest($0) }
      }
      for line in lines { connection.writer.send(line) }
      sendWill(on: connection.writer)
    }
    logger.debug("connected", metadata: ["address": "\(address)"])
    setConnectionState(.connected)
    finishFirstConnect(.success(()))
  }

  /// Stops requests going to the connection, fails the replies still awaited, closes it.
  private func tearDown(_ connection: EstablishedConnection) {
    writer.withLock { $0 = nil }
    let abandoned = state.withLock { state in
      state.book.clearWire()
      state.historyLines.removeAll()
      defer { state.pending.removeAll() }
      return state.pending
    }
    let failure: ClientError = isClosed ? .closed : .connectionLost
    for case .caller(let continuation) in abandoned {
      continuation.resume(returning: .failure(failure))
    }
    for case .willRequest(let continuation) in abandoned {
      continuation.resume(returning: .failure(failure))
    }
    for case .history(_, _, let continuation) in abandoned {
      continuation.resume(returning: .failure(failure))
    }
    connection.tls?.close()
    Glibc.close(connection.fd)
  }

  /// Reads and dispatches lines until the connection ends; returns why it ended.
  private func readUntilDropped(_ connection: EstablishedConnection) -> String {
    let interval = configuration.keepAliveInterval
    var awaitingKeepAlive = false
    while true {
      do throws(LineReader.End) {
        handle(try connection.reader.nextLine(until: interval.map { .now + $0 }))
        awaitingKeepAlive = false
      } catch {
        switch error {
        case .closed(let reason), .invalid(let reason): return reason
        case .woken: return "closed by the client"
        case .timedOut:
          if awaitingKeepAlive { return "no reply to a keep-alive ping" }
          awaitingKeepAlive = true
          sendKeepAlive()
        }
      }
    }
  }

  private func sendKeepAlive() {
    writer.withLock { writer in
      guard let writer else { return }
      state.withLock {
        $0.pending.append(.keepAlive)
        $0.sent["keepalive", default: 0] += 1
      }
      writer.send(RequestLine.plain("ping"))
    }
  }
}
