/**
 * `inChainOrder`: the nodes of a transcript tree ordered so that every node follows its parent,
 * otherwise as the file wrote them — the order a tool that builds its chain from parent links
 * reads (Claude Code sometimes writes a line before the line it follows, SPEC §26).
 * @module
 */
import type { TreeNode } from './transcript-tree.js';

/**
 * `nodes` (file order) each after its parent: a node whose parent comes later in the file moves to
 * just after it (with its own waiting children); `order` is renumbered to the new positions. The
 * array itself when nothing moves; nodes in a parent cycle keep their file order at the end.
 */
export function inChainOrder(nodes: TreeNode[]): TreeNode[] {
  const position = new Map<string, number>();
  nodes.forEach((node, index) => {
    if (!position.has(node.key)) position.set(node.key, index);
  });
  let moves = false;
  for (let i = 0; i < nodes.length && !moves; i++) {
    const parent = (nodes[i] as TreeNode).parent;
    const at = parent === undefined ? undefined : position.get(parent);
    if (at !== undefined && at > i) moves = true;
  }
  if (!moves) return nodes;
  // Children waiting for a parent written later, by the parent's key (file order).
  const waiting = new Map<string, TreeNode[]>();
  const placed = new Set<string>();
  const out: TreeNode[] = [];
  const emitted = new Set<TreeNode>();
  const place = (first: TreeNode): void => {
    const stack = [first];
    while (stack.length > 0) {
      const node = stack.pop() as TreeNode;
      out.push(node);
      emitted.add(node);
      placed.add(node.key);
      const children = waiting.get(node.key);
      if (children === undefined) continue;
      waiting.delete(node.key);
      for (let c = children.length - 1; c >= 0; c--) stack.push(children[c] as TreeNode);
    }
  };
  nodes.forEach((node) => {
    const parent = node.parent;
    // Its parent is written later and not placed yet: it waits (a line that is its own parent never does).
    if (parent !== undefined && parent !== node.key && position.has(parent) && !placed.has(parent)) {
      const list = waiting.get(parent);
      if (list === undefined) waiting.set(parent, [node]);
      else list.push(node);
      return;
    }
    place(node);
  });
  for (const node of nodes) if (!emitted.has(node)) out.push(node);
  return out.map((node, order) => ({ ...node, order }));
}
