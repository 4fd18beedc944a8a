/// Values keyed by name in name order, in a B+ tree: insert and remove cost O(log n), and
/// reading `k` keys in order from any place costs O(log n + k).
///
/// `list` pages through the topics by name; a dictionary would have to be sorted whole for
/// every page, which at a million topics took most of a second while the loop waited. A tree
/// of small sorted arrays keeps the order at the cost of a few comparisons per topic made or
/// dropped, and its nodes are contiguous, so a walk along a page touches little memory.
///
/// Not thread-safe: the ``StreamRegistry`` keeps it under its lock, with the topics. The nodes
/// are objects, so copies share them: keep one, and change it in place.
package struct OrderedNames<Value> {
  /// The most keys a leaf holds, and the most children a branch has; a node holds at least half
  /// as many unless it is the root.
  static var fanout: Int { 64 }

  /// How many keys have a value.
  private(set) var count = 0

  private var root = OrderedNamesNode<Value>()

  /// Sets the value under `key`, adding the key if it is new.
  package mutating func insert(_ key: String, _ value: Value) {
    guard let (separator, right) = Self.insert(key, value, into: root, count: &count) else {
      return
    }
    // The root split: the tree grows one level at the top, so every leaf stays at one depth.
    let newRoot = OrderedNamesNode<Value>()
    newRoot.keys = [separator]
    newRoot.children = [root, right]
    root = newRoot
  }

  /// Removes `key` and its value, if present.
  package mutating func remove(_ key: String) {
    guard Self.remove(key, from: root) else { return }
    count -= 1
    if !root.isLeaf, root.children.count == 1 { root = root.children[0] }
  }

  /// Calls `body` with each key after `lowerBound` (from it, when `inclusive`) and its value, in
  /// order, until `body` returns `false` or the keys end; from the first key when `lowerBound`
  /// is `nil`.
  func forEach(
    from lowerBound: String?, inclusive: Bool, _ body: (String, Value) -> Bool
  ) {
    _ = Self.walk(root, from: lowerBound, inclusive: inclusive, body)
  }

  // MARK: Inserting

  /// Inserts into the subtree at `node`; returns the separator and new right node when `node`
  /// split.
  private static func insert(
    _ key: String, _ value: Value, into node: OrderedNamesNode<Value>, count: inout Int
  ) -> (String, OrderedNamesNode<Value>)? {
    if node.isLeaf {
      let index = node.firstIndex(notBelow: key)
      if index < node.keys.count, node.keys[index] == key {
        node.values[index] = value
        return nil
      }
      node.keys.insert(key, at: index)
      node.values.insert(value, at: index)
      count += 1
      guard node.keys.count > fanout else { return nil }
      let right = OrderedNamesNode<Value>()
      let half = node.keys.count / 2
      right.keys = Array(node.keys[half...])
      right.values = Array(node.values[half...])
      node.keys.removeSubrange(half...)
      node.values.removeSubrange(half...)
      return (right.keys[0], right)
    }
    let slot = node.childIndex(for: key)
    guard let (separator, right) = insert(key, value, into: node.children[slot], count: &count)
    else { return nil }
    node.keys.insert(separator, at: slot)
    node.children.insert(right, at: slot + 1)
    guard node.children.count > fanout else { return nil }
    let sibling = OrderedNamesNode<Value>()
    let half = node.children.count / 2
    // The separator between the halves moves up; each half keeps the ones between its children.
    let raised = node.keys[half - 1]
    sibling.keys = Array(node.keys[half...])
    sibling.children = Array(node.children[half...])
    node.keys.removeSubrange((half - 1)...)
    node.children.removeSubrange(half...)
    return (raised, sibling)
  }

  // MARK: Removing

  /// Removes `key` from the subtree at `node`; returns whether it was there. A child left with
  /// fewer than half its room borrows from a sibling or merges with one.
  private static func remove(_ key: String, from node: OrderedNamesNode<Value>) -> Bool {
    if node.isLeaf {
      let index = node.firstIndex(notBelow: key)
      guard index < node.keys.count, node.keys[index] == key else { return false }
      node.keys.remove(at: index)
      node.values.remove(at: index)
      return true
    }
    let slot = node.childIndex(for: key)
    guard remove(key, from: node.children[slot]) else { return false }
    if node.children[slot].size < fanout / 2 { rebalance(node, at: slot) }
    return true
  }

  /// Refills `parent`'s child at `slot` from a sibling with keys to spare, or merges it with one.
  private static func rebalance(_ parent: OrderedNamesNode<Value>, at slot: Int) {
    let child = parent.children[slot]
    if slot > 0, parent.children[slot - 1].size > fanout / 2 {
      let left = parent.children[slot - 1]
      if child.isLeaf {
        child.keys.insert(left.keys.removeLast(), at: 0)
        child.values.insert(left.values.removeLast(), at: 0)
        parent.keys[slot - 1] = child.keys[0]
      } else {
        child.children.insert(left.children.removeLast(), at: 0)
        child.keys.insert(parent.keys[slot - 1], at: 0)
        parent.keys[slot - 1] = left.keys.removeLast()
      }
    } else if slot + 1 < parent.children.count, parent.children[slot + 1].size > fanout / 2 {
      let right = parent.children[slot + 1]
      if child.isLeaf {
        child.keys.append(right.keys.removeFirst())
        child.values.append(right.values.removeFirst())
        parent.keys[slot] = right.keys[0]
      } else {
        child.children.append(right.children.removeFirst())
        child.keys.append(parent.keys[slot])
        parent.keys[slot] = right.keys.removeFirst()
      }
    } else if slot > 0 {
      merge(parent, at: slot - 1)
    } else if parent.children.count > 1 {
      merge(parent, at: slot)
    }
  }

  /// Moves everything of `parent`'s child at `slot + 1` into the child at `slot`, which together
  /// fit one node, and forgets the emptied one.
  private static func merge(_ parent: OrderedNamesNode<Value>, at slot: Int) {
    let left = parent.children[slot]
    let right = parent.children[slot + 1]
    if left.isLeaf {
      left.keys += right.keys
      left.values += right.values
    } else {
      left.keys.append(parent.keys[slot])
      left.keys += right.keys
      left.children += right.children
    }
    parent.keys.remove(at: slot)
    parent.children.remove(at: slot + 1)
  }

  // MARK: Reading

  /// Walks the subtree at `node` in order from `lowerBound`; returns `false` once `body` did.
  private static func walk(
    _ node: OrderedNamesNode<Value>, from lowerBound: String?, inclusive: Bool,
    _ body: (String, Value) -> Bool
  ) -> Bool {
    if node.isLeaf {
      var index = 0
      if let lowerBound {
        index = node.firstIndex(notBelow: lowerBound)
        if !inclusive, index < node.keys.count, node.keys[index] == lowerBound { index += 1 }
      }
      while index < node.keys.count {
        guard body(node.keys[index], node.values[index]) else { return false }
        index += 1
      }
      return true
    }
    let first = lowerBound.map { node.childIndex(for: $0) } ?? 0
    for slot in first..<node.children.count {
      // Only the first child can hold keys below the bound; the others start above it.
      let bound = slot == first ? lowerBound : nil
      guard walk(node.children[slot], from: bound, inclusive: inclusive, body) else {
        return false
      }
    }
    return true
  }
}

/// A node of ``OrderedNames``: a leaf with sorted keys and their values, or a branch whose
/// `keys` separate its `children` (every key under `children[i + 1]` is at least `keys[i]`, and
/// every key under `children[i]` is below it).
package final class OrderedNamesNode<Value> {
  package var keys: [String] = []
  package var values: [Value] = []
  package var children: [OrderedNamesNode<Value>] = []

  var isLeaf: Bool { children.isEmpty }

  /// Keys in a leaf, children in a branch.
  package var size: Int { isLeaf ? keys.count : children.count }

  /// The index of the first key not below `key` (binary search).
  package func firstIndex(notBelow key: String) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The child whose keys `key` falls among: the number of separators not above it.
  func childIndex(for key: String) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] <= key { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
