/**
 * @module write-index-tree
 * `git write-tree` without starting git, for the common case: the workspace's private index (format 2
 * or 3) whose cache-tree is valid but for a few folders — a checkpoint after a few changed files. The
 * invalid folders' trees are built from the index entries and written as loose objects exactly as git
 * writes them; every valid folder's tree is taken from the cache-tree. Anything else (no cache-tree,
 * many invalid folders, index format 4, a split or sparse index, a conflict stage, SHA-256) answers
 * undefined and the caller runs `git write-tree`, which also repairs the cache-tree.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

/** More invalid folders than this: `git write-tree` builds them and writes the cache-tree back. */
export const MAX_INVALID_FOLDERS = 64;

const HASH_BYTES = 20;
const ENTRY_FIXED_BYTES = 62;

/**
 * The index's entries, read by position: only where each path lies is found up front, so a folder
 * the cache-tree holds valid is skipped without decoding a byte of it.
 */
class IndexEntries {
  constructor(
    private readonly bytes: Buffer,
    private readonly starts: Uint32Array,
    private readonly pathStarts: Uint32Array,
    private readonly pathEnds: Uint32Array,
  ) {}

  get length(): number {
    return this.starts.length;
  }

  /** The path as one character per byte, so names that are not UTF-8 come back byte for byte. */
  path(at: number): string {
    return this.bytes.toString('latin1', this.pathStarts[at], this.pathEnds[at]);
  }

  mode(at: number): number {
    return this.bytes.readUInt32BE((this.starts[at] as number) + 24);
  }

  id(at: number): Buffer {
    const start = (this.starts[at] as number) + 40;
    return this.bytes.subarray(start, start + HASH_BYTES);
  }
}
/** One cache-tree node: its entry count (-1: invalid), its tree id when valid, its subfolders by name. */
type CacheNode = { count: number; id: Buffer | undefined; children: Map<string, CacheNode> };

/** The index's entries and cache-tree, or undefined when this module does not read this index. */
function readIndex(bytes: Buffer): { entries: IndexEntries; tree: CacheNode } | undefined {
  if (bytes.length < 12 + HASH_BYTES || bytes.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = bytes.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - HASH_BYTES;
  const starts = new Uint32Array(count);
  const pathStarts = new Uint32Array(count);
  const pathEnds = new Uint32Array(count);
  let at = 12;
  for (let index = 0; index < count; index += 1) {
    if (at + ENTRY_FIXED_BYTES > end) return undefined;
    const flags = bytes.readUInt16BE(at + 60);
    // A conflict stage never occurs in a private index built by update-index; git knows what to do with one.
    if ((flags & 0x3000) !== 0) return undefined;
    const extended = (flags & 0x4000) !== 0;
    if (extended && version < 3) return undefined;
    const pathStart = at + ENTRY_FIXED_BYTES + (extended ? 2 : 0);
    // The flags hold the path's length, up to 0xFFF; a longer path ends at its NUL.
    const pathEnd = (flags & 0xfff) < 0xfff ? pathStart + (flags & 0xfff) : bytes.indexOf(0, pathStart);
    if (pathEnd === -1 || pathEnd >= end || bytes[pathEnd] !== 0) return undefined;
    starts[index] = at;
    pathStarts[index] = pathStart;
    pathEnds[index] = pathEnd;
    // Entries are padded with 1–8 NULs to a multiple of 8 bytes.
    at += (pathEnd - at + 8) & ~7;
  }
  const entries = new IndexEntries(bytes, starts, pathStarts, pathEnds);
  let tree: CacheNode | undefined;
  while (at + 8 <= end) {
    const signature = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32BE(at + 4);
    const body = at + 8;
    if (body + size > end) return undefined;
    if (signature === 'TREE') tree = readCacheTree(bytes.subarray(body, body + size));
    // An extension whose name starts with a capital is optional; any other (split `link`, sparse `sdir`) is git's job.
    else if (!/^[A-Z]/.test(signature)) return undefined;
    at = body + size;
  }
  return tree === undefined ? undefined : { entries, tree };
}

/** The TREE extension: nodes in pre-order, each `name NUL count SP subtrees LF [id]`. */
function readCacheTree(body: Buffer): CacheNode | undefined {
  let at = 0;
  const node = (): CacheNode & { name: string } => {
    const nameEnd = body.indexOf(0, at);
    const lineEnd = body.indexOf(10, nameEnd);
    if (nameEnd === -1 || lineEnd === -1) throw new RangeError('cache-tree');
    const name = body.toString('latin1', at, nameEnd);
    const [count, subtrees] = body
      .toString('latin1', nameEnd + 1, lineEnd)
      .split(' ')
      .map(Number);
    if (!Number.isInteger(count) || !Number.isInteger(subtrees)) throw new RangeError('cache-tree');
    at = lineEnd + 1;
    let id: Buffer | undefined;
    if ((count as number) >= 0) {
      id = body.subarray(at, at + HASH_BYTES);
      at += HASH_BYTES;
    }
    const children = new Map<string, CacheNode>();
    for (let child = 0; child < (subtrees as number); child += 1) {
      const read = node();
      children.set(read.name, read);
    }
    return { name, count: count as number, id, children };
  };
  try {
    return body.length === 0 ? undefined : node();
  } catch {
    return undefined;
  }
}

function invalidFolders(node: CacheNode): number {
  if (node.count >= 0) return 0;
  let count = 1;
  for (const child of node.children.values()) count += invalidFolders(child);
  return count;
}

/** A tree object to write: its id and its raw object (header + body). */
type TreeObject = { id: string; object: Buffer };

/**
 * The tree of `entries[start…]` under `prefix` (every entry there starts with it), and where the
 * folder's entries end. A valid cache node gives its id and entry count at once.
 */
function buildTree(
  entries: IndexEntries,
  start: number,
  prefix: string,
  node: CacheNode | undefined,
  out: TreeObject[],
): { id: Buffer; end: number } {
  if (node !== undefined && node.count >= 0 && node.id !== undefined) return { id: node.id, end: start + node.count };
  const parts: Buffer[] = [];
  let at = start;
  while (at < entries.length) {
    const path = entries.path(at);
    if (!path.startsWith(prefix)) break;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash === -1) {
      parts.push(Buffer.from(`${entries.mode(at).toString(8)} ${rest}\0`, 'latin1'), entries.id(at));
      at += 1;
      continue;
    }
    const name = rest.slice(0, slash);
    const sub = buildTree(entries, at, `${prefix}${name}/`, node?.children.get(name), out);
    parts.push(Buffer.from(`40000 ${name}\0`, 'latin1'), sub.id);
    at = sub.end;
  }
  const body = Buffer.concat(parts);
  const object = Buffer.concat([Buffer.from(`tree ${String(body.length)}\0`, 'latin1'), body]);
  const id = createHash('sha1').update(object).digest();
  out.push({ id: id.toString('hex'), object });
  return { id, end: at };
}

/**
 * Writes a loose object as git does (deflated, read-only, renamed into place so no reader sees half
 * of it); an existing one is freshened. Synchronous: a few small files, no thread-pool round trips.
 */
function writeLooseObject(objectsDir: string, tmpDir: string, { id, object }: TreeObject): void {
  const dir = join(objectsDir, id.slice(0, 2));
  const path = join(dir, id.slice(2));
  const now = new Date();
  try {
    // Freshened like git does, so a concurrent prune's grace period counts from now.
    utimesSync(path, now, now);
    return;
  } catch {
    // Not there yet.
  }
  mkdirSync(dir, { recursive: true });
  const temp = join(tmpDir, `tree-${id}.${String(process.pid)}.${Math.random().toString(36).slice(2, 10)}`);
  writeFileSync(temp, deflateSync(object), { mode: 0o444 });
  try {
    // Replacing an object written meanwhile replaces the same bytes.
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * The root tree of the index at `indexFile` with the invalid folders' trees written into the SHA-1
 * store at `gitDir`, or undefined when `git write-tree` must do it (see the module comment).
 */
export function writeIndexTree(gitDir: string, indexFile: string, tmpDir: string): string | undefined {
  // A SHA-256 store (its config names the object format) has other entry and id sizes.
  if (readFileSync(join(gitDir, 'config'), 'utf8').toLowerCase().includes('objectformat')) return undefined;
  const index = readIndex(readFileSync(indexFile));
  if (index === undefined || invalidFolders(index.tree) > MAX_INVALID_FOLDERS) return undefined;
  const written: TreeObject[] = [];
  const root = buildTree(index.entries, 0, '', index.tree, written);
  if (root.end !== index.entries.length) return undefined;
  for (const tree of written) writeLooseObject(join(gitDir, 'objects'), tmpDir, tree);
  return root.id.toString('hex');
}
