import { join, resolve } from 'node:path';

/** `tooling/bench/peers`: the peers' own package.json, lockfile and (git-ignored) node_modules. */
export const PEERS_DIR = resolve(import.meta.dirname, '../../peers');

/** The module that imports a peer package from `PEERS_DIR`'s node_modules. */
export const PEER_LOADER = join(PEERS_DIR, 'load-peer.mjs');

/** Packages whose versions the report lists. */
export const PEER_PACKAGES = [
  '@mariozechner/pi-coding-agent',
  '@anthropic-ai/claude-agent-sdk',
  '@langchain/langgraph',
  '@langchain/core',
  '@langchain/langgraph-checkpoint-sqlite',
  'better-sqlite3',
] as const;
