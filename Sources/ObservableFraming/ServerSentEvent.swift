import ObservableWire

/// One event of ``ServerSentEvents`` before it is written: pointers into the line it is made
/// from, so that its size is known before any byte is copied.
struct ServerSentEvent {
  /// The `event:` field: a stream's name, `error` or `gap`.
  var name: UnsafeRawBufferPointer
  /// The `id:` field, a position, when the line has one.
  var id: UnsafeRawBufferPointer?
  /// The `data:` field: the line, without its line feed.
  var data: UnsafeRawBufferPointer

  /// How many bytes ``write(to:)`` writes.
  var size: Int {
    Self.eventField.utf8CodeUnitCount + name.count
      + (id.map { Self.idField.utf8CodeUnitCount + $0.count } ?? 0)
      + Self.dataField.utf8CodeUnitCount + data.count + Self.end.utf8CodeUnitCount
  }

  /// Writes the event at `target` and returns where it ends: its name, its `id` when it has
  /// one, its data, the blank line. With `carriageReturns` (the caller found one in the lines
  /// the event is among), each carriage return in the data is written as a space, which
  /// `EventSource` would take as the end of the line and JSON reads as whitespace.
  func write(
    to target: UnsafeMutablePointer<UInt8>, carriageReturns: Bool
  ) -> UnsafeMutablePointer<UInt8> {
    var next = Self.copy(Self.eventField.bytes, to: target)
    next = Self.copy(name, to: next)
    if let id {
      next = Self.copy(Self.idField.bytes, to: next)
      next = Self.copy(id, to: next)
    }
    next = Self.copy(Self.dataField.bytes, to: next)
    let dataStart = next
    next = Self.copy(data, to: next)
    var searched = dataStart
    while carriageReturns, searched < next,
      let found = ByteSearch.first(0x0D, in: searched, count: next - searched)
    {
      let carriageReturn = UnsafeMutablePointer(
        mutating: found.assumingMemoryBound(to: UInt8.self))
      carriageReturn.pointee = UInt8(ascii: " ")
      searched = carriageReturn + 1
    }
    return Self.copy(Self.end.bytes, to: next)
  }

  private static func copy(
    _ bytes: UnsafeRawBufferPointer, to target: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    guard let base = bytes.baseAddress else { return target }
    UnsafeMutableRawPointer(target).copyMemory(from: base, byteCount: bytes.count)
    return target + bytes.count
  }

  // No space after the colons: the standard allows it and drops one if there, and an event
  // is then two bytes shorter on the wire and in every socket copy.
  private static let eventField: StaticString = "event:"
  private static let idField: StaticString = "\nid:"
  private static let dataField: StaticString = "\ndata:"
  private static let end: StaticString = "\n\n"
}

extension StaticString {
  /// The literal's UTF-8 bytes, which live as long as the program.
  var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
  }
}
