import IndefiniteObservable

/// The library's operators applied to an `Int` stream, so one test can cover each of them.
enum Operator: CaseIterable, Sendable {
  case map
  case filter

  func apply(to upstream: ValueObservable<Int>) -> ValueObservable<Int> {
    switch self {
    case .map: upstream.map { $0 + 1 }
    case .filter: upstream.filter { _ in true }
    }
  }
}
