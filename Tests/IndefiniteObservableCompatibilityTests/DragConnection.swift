/// Stands in for a pan gesture recognizer: calls its targets' actions whenever it moves.
final class PanGesture {
  struct Point: Equatable {
    var x: Double
    var y: Double
  }

  private(set) var location = Point(x: 0, y: 0)

  var targetCount: Int { actions.count }

  func addTarget(_ target: AnyObject, action: @escaping (PanGesture) -> Void) {
    actions[ObjectIdentifier(target)] = action
  }

  func removeTarget(_ target: AnyObject) {
    actions[ObjectIdentifier(target)] = nil
  }

  func move(to point: Point) {
    location = point
    for action in actions.values {
      action(self)
    }
  }

  private var actions: [ObjectIdentifier: (PanGesture) -> Void] = [:]
}

/// The README's object-based connection: its `disconnect` method is the observable's Disconnect.
final class DragConnection {
  typealias Value = PanGesture.Point

  init(subscribedTo gesture: PanGesture, observer: ValueObserver<Value>) {
    self.gesture = gesture
    self.observer = observer
    // Held weakly, as UIKit holds targets, so only the returned disconnect keeps this alive.
    gesture.addTarget(self) { [weak self] in self?.didMove($0) }
  }

  func disconnect() {
    gesture?.removeTarget(self)
    gesture = nil
  }

  private func didMove(_ gesture: PanGesture) {
    observer.next(gesture.location)
  }

  private var gesture: PanGesture?
  private let observer: ValueObserver<Value>
}
