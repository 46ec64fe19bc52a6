/**
 * Picks the lines of a tree-shaped transcript: the main line (ending at the most recently written
 * message) first, then one line per other branch leaf, each as entry keys in file order.
 */

/** One entry of a transcript tree; `order` is its position in the file. */
export type TreeNode = { key: string; parent: string | undefined; order: number; message: boolean };

/**
 * Whether `node`, hanging off `line` without being an ancestor of its leaf, still belongs to it
 * (Claude Code writes parallel results and split responses as siblings).
 */
export type Absorbs = (node: TreeNode, line: { has(key: string): boolean }) => boolean;

/** `nodes` in file order: the array itself when the readers built it so (they do), else a sorted copy. */
function inFileOrder(nodes: readonly TreeNode[]): readonly TreeNode[] {
  for (let i = 1; i < nodes.length; i++)
    if ((nodes[i - 1] as TreeNode).order > (nodes[i] as TreeNode).order) return [...nodes].sort((a, b) => a.order - b.order);
  return nodes;
}

/**
 * The tree's nodes in file order with integer ids for their keys (a key written twice is one id,
 * its node the one `nodes` lists last, as a map keyed by it would hold), so a line is a mark per key
 * id rather than a set of strings.
 */
type IndexedTree = {
  sorted: readonly TreeNode[];
  keyId: ReadonlyMap<string, number>;
  /** The key id of each node of `sorted`. */
  ids: Int32Array;
  /** The key id of each node's parent, -1 when it has none or the tree does not hold it. */
  parentIds: Int32Array;
  /** For each key id, the index in `sorted` of the node that key names. */
  nodeOfKey: Int32Array;
};

function indexTree(nodes: readonly TreeNode[]): IndexedTree {
  const sorted = inFileOrder(nodes);
  const keyId = new Map<string, number>();
  const ids = new Int32Array(sorted.length);
  sorted.forEach((node, index) => {
    let id = keyId.get(node.key);
    if (id === undefined) {
      id = keyId.size;
      keyId.set(node.key, id);
    }
    ids[index] = id;
  });
  const parentIds = new Int32Array(sorted.length);
  sorted.forEach((node, index) => {
    parentIds[index] = node.parent === undefined ? -1 : (keyId.get(node.parent) ?? -1);
  });
  const nodeOfKey = new Int32Array(keyId.size);
  const position = sorted === nodes ? undefined : new Map(sorted.map((node, index) => [node, index]));
  nodes.forEach((node, index) => {
    nodeOfKey[keyId.get(node.key) as number] = position === undefined ? index : (position.get(node) as number);
  });
  return { sorted, keyId, ids, parentIds, nodeOfKey };
}

/** Every line of the tree, main line first; each is the keys of its entries in file order. */
export function linesOfTree(nodes: readonly TreeNode[], absorbs: Absorbs = () => false): string[][] {
  if (nodes.length === 0) return [[]];
  const tree = indexTree(nodes);
  const { sorted, ids, parentIds } = tree;

  const main = lineOfLeaf(tree, lastMessageIndex(sorted), absorbs);
  const covered = new Uint8Array(tree.keyId.size);
  main.marks.forEach((mark, id) => {
    covered[id] = mark;
  });
  const lines = [main.keys];

  // A branch leaf: a message with no message below it, on no line yet.
  const hasMessageBelow = new Uint8Array(tree.keyId.size);
  for (let i = sorted.length - 1; i >= 0; i--) {
    const node = sorted[i] as TreeNode;
    const parent = parentIds[i] as number;
    if ((node.message || hasMessageBelow[ids[i] as number] === 1) && parent >= 0) hasMessageBelow[parent] = 1;
  }
  // Newest leaf first, so a branch's own last entry claims the structural siblings along it.
  const branches: { order: number; line: string[] }[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const node = sorted[i] as TreeNode;
    const id = ids[i] as number;
    if (!node.message || covered[id] === 1 || hasMessageBelow[id] === 1) continue;
    const line = lineOfLeaf(tree, i, absorbs);
    line.marks.forEach((mark, key) => {
      if (mark === 1) covered[key] = 1;
    });
    branches.push({ order: node.order, line: line.keys });
  }
  // Returned in file order of their leaves: a branch is usually written after the one it leaves.
  branches.sort((a, b) => a.order - b.order);
  return [...lines, ...branches.map((branch) => branch.line)];
}

/** The line ending at `sorted[leaf]`: its keys in file order and the mark of each key id on it. */
function lineOfLeaf(tree: IndexedTree, leaf: number, absorbs: Absorbs): { keys: string[]; marks: Uint8Array } {
  const { sorted, keyId, ids, parentIds, nodeOfKey } = tree;
  const marks = new Uint8Array(keyId.size);
  for (let node = leaf; ;) {
    const id = ids[node] as number;
    if (marks[id] === 1) break;
    marks[id] = 1;
    const parent = parentIds[node] as number;
    if (parent < 0) break;
    node = nodeOfKey[parent] as number;
  }
  const line = {
    has: (key: string): boolean => {
      const id = keyId.get(key);
      return id !== undefined && marks[id] === 1;
    },
  };
  // One pass in file order suffices: a child is written after its parent.
  for (let i = 0; i < sorted.length; i++) {
    const id = ids[i] as number;
    const parent = parentIds[i] as number;
    if (marks[id] === 1 || parent < 0 || marks[parent] !== 1) continue;
    if (absorbs(sorted[i] as TreeNode, line)) marks[id] = 1;
  }
  const keys: string[] = [];
  for (let i = 0; i < sorted.length; i++) if (marks[ids[i] as number] === 1) keys.push((sorted[i] as TreeNode).key);
  return { keys, marks };
}

/**
 * The line ending at `leafKey` as the file stood when that entry was written (only entries up to
 * it in file order, siblings absorbed as `linesOfTree` does): what a cut there keeps.
 */
export function lineEndingAt(nodes: readonly TreeNode[], leafKey: string, absorbs: Absorbs = () => false): string[] | undefined {
  const leaf = nodes.find((node) => node.key === leafKey);
  if (leaf === undefined) return undefined;
  const upTo = inFileOrder(nodes).filter((node) => node.order <= leaf.order);
  const tree = indexTree(upTo);
  return lineOfLeaf(tree, upTo.indexOf(leaf), absorbs).keys;
}

/** The main line's leaf: the most recently written message (else the last entry). */
export function mainLeafOf(nodes: readonly TreeNode[]): TreeNode | undefined {
  return lastMessage(inFileOrder(nodes));
}

function lastMessage(sorted: readonly TreeNode[]): TreeNode | undefined {
  return sorted[lastMessageIndex(sorted)];
}

/** The index of the most recently written message (else of the last entry; -1 when there is none). */
function lastMessageIndex(sorted: readonly TreeNode[]): number {
  for (let i = sorted.length - 1; i >= 0; i--) if ((sorted[i] as TreeNode).message) return i;
  return sorted.length - 1;
}
