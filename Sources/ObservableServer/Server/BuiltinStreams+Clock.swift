import ObservablePOSIX
import ObservableStreams

extension BuiltinStreams {
  /// The `clock` stream on the system's wall clock: `UTCTimestamp.now`, read with `gmtime_r`
  /// below the streams layer.
  package static func clock() -> PeriodicSource { clock { UTCTimestamp.now() } }
}
