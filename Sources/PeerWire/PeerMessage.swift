/// What a server sent one of the benchmark's connections, in the benchmark's terms, whatever
/// the protocol: a published value, a confirmation, or something to answer.
public enum PeerMessage {
  /// A published value's payload, valid only while the handler that receives it runs.
  case delivery(UnsafeRawBufferPointer)
  /// A subscription is in place (RESP `subscribe`, MQTT SUBACK, the line protocol's
  /// `{"ok":true,"op":"subscribe"…}`).
  case subscribed
  /// The answer to the client's ping (RESP `+PONG`, NATS `PONG`, MQTT PINGRESP): everything
  /// the client sent before the ping has been taken.
  case pong
  /// The server greeted the connection or accepted it (the line protocol's hello, NATS `INFO`,
  /// MQTT CONNACK with return code 0).
  case greeting
  /// The server checks that the client is alive (NATS `PING`): answer with the dialect's
  /// ``PeerDialect/pingAnswer``.
  case ping
  /// One publish was answered (RESP's receiver count, the line protocol's `{"ok":true…}`).
  case acknowledged
  /// The server refused something; the text says what, as the server put it.
  case refused(String)
  /// Anything else (NATS `+OK`, RESP replies the benchmark does not ask for).
  case other
}
