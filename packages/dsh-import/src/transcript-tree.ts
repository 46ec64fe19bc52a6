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
export type Absorbs = (node: TreeNode, line: ReadonlySet<string>) => boolean;

/** `nodes` in file order: the array itself when the readers built it so (they do), else a sorted copy. */
function inFileOrder(nodes: readonly TreeNode[]): readonly TreeNode[] {
  for (let i = 1; i < nodes.length; i++) if ((nodes[i - 1] as TreeNode).order > (nodes[i] as TreeNode).order) return [...nodes].sort((a, b) => a.order - b.order);
  return nodes;
}

/** Every line of the tree, main line first; each is the keys of its entries in file order. */
export function linesOfTree(nodes: readonly TreeNode[], absorbs: Absorbs = () => false): string[][] {
  if (nodes.length === 0) return [[]];
  const byKey = new Map<string, TreeNode>();
  for (const node of nodes) byKey.set(node.key, node);
  const sorted = inFileOrder(nodes);

  const lineOf = (leaf: TreeNode): string[] => lineOfLeaf(sorted, byKey, leaf, absorbs);

  const mainLeaf = lastMessage(sorted);
  if (mainLeaf === undefined) return [[]];
  const main = lineOf(mainLeaf);
  const covered = new Set(main);
  const lines = [main];

  // A branch leaf: a message with no message below it, on no line yet.
  const hasMessageBelow = new Set<string>();
  for (let i = sorted.length - 1; i >= 0; i--) {
    const node = sorted[i] as TreeNode;
    if ((node.message || hasMessageBelow.has(node.key)) && node.parent !== undefined) hasMessageBelow.add(node.parent);
  }
  // Newest leaf first, so a branch's own last entry claims the structural siblings along it.
  const branches: { order: number; line: string[] }[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const node = sorted[i] as TreeNode;
    if (!node.message || covered.has(node.key) || hasMessageBelow.has(node.key)) continue;
    const line = lineOf(node);
    for (const key of line) covered.add(key);
    branches.push({ order: node.order, line });
  }
  // Returned in file order of their leaves: a branch is usually written after the one it leaves.
  branches.sort((a, b) => a.order - b.order);
  return [...lines, ...branches.map((branch) => branch.line)];
}

function lineOfLeaf(sorted: readonly TreeNode[], byKey: ReadonlyMap<string, TreeNode>, leaf: TreeNode, absorbs: Absorbs): string[] {
  const set = new Set<string>();
  for (let node: TreeNode | undefined = leaf; node !== undefined && !set.has(node.key); ) {
    set.add(node.key);
    node = node.parent === undefined ? undefined : byKey.get(node.parent);
  }
  // One pass in file order suffices: a child is written after its parent.
  for (const node of sorted) {
    if (set.has(node.key) || node.parent === undefined || !set.has(node.parent)) continue;
    if (absorbs(node, set)) set.add(node.key);
  }
  return sorted.filter((node) => set.has(node.key)).map((node) => node.key);
}

/**
 * The line ending at `leafKey` as the file stood when that entry was written (only entries up to
 * it in file order, siblings absorbed as `linesOfTree` does): what a cut there keeps.
 */
export function lineEndingAt(nodes: readonly TreeNode[], leafKey: string, absorbs: Absorbs = () => false): string[] | undefined {
  const leaf = nodes.find((node) => node.key === leafKey);
  if (leaf === undefined) return undefined;
  const upTo = inFileOrder(nodes).filter((node) => node.order <= leaf.order);
  const byKey = new Map<string, TreeNode>();
  for (const node of upTo) byKey.set(node.key, node);
  return lineOfLeaf(upTo, byKey, leaf, absorbs);
}

/** The main line's leaf: the most recently written message (else the last entry). */
export function mainLeafOf(nodes: readonly TreeNode[]): TreeNode | undefined {
  return lastMessage(inFileOrder(nodes));
}

function lastMessage(sorted: readonly TreeNode[]): TreeNode | undefined {
  for (let i = sorted.length - 1; i >= 0; i--) if ((sorted[i] as TreeNode).message) return sorted[i];
  return sorted[sorted.length - 1];
}
