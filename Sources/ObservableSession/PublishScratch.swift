/// Storage for one read's batched publishes and their replies, lent to each session of one
/// event loop in turn.
///
/// A batch is built and handed on before its read's handler returns, so one buffer per loop
/// serves every connection on it: a connection that once published fast keeps no 64 KiB
/// buffer of its own.
package final class PublishScratch: @unchecked Sendable {
  // Unchecked: handed to connections when they are made, then used on its loop thread only.

  /// The bytes; sessions swap them in and out, keeping the capacity.
  var bytes: [UInt8] = []

  /// Empty storage, for one loop.
  package init() {}
}
