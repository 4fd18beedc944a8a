import ObservableWire

extension StreamRegistry {
  /// Refuses a name that is not a topic: invalid, or a built-in or exec stream. A clustered
  /// publish or clear asks it before any local topic exists.
  package func checkTopic(_ name: String) throws(ProtocolError) {
    try StreamName.validate(name)
    if let source = sources[name] {
      throw ProtocolError(.readOnly, "\(name) is a read-only \(source.kind.rawValue) stream")
    }
  }
}
