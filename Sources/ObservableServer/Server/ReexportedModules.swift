// The types of the server's public API that live in the layers below it (`ListenAddress`,
// `SystemError`, `ErrorCode`, `StreamKind`, `StreamObserver`, `LogfmtLogHandler`), so that
// `import ObservableServer` alone still reaches them, as it did before the split. Only public
// declarations cross; `package` ones stay inside this package.
@_exported import ObservableLogging
@_exported import ObservablePOSIX
@_exported import ObservableStreams
@_exported import ObservableWire
