/**
 * The layer table of SPEC §2: which workspace unit may import which workspace package.
 * A unit is a folder under packages/, apps/ or tooling/. Tooling may import anything.
 */
/** @type {Record<string, readonly string[]>} */
export const LAYERS = {
  'packages/dsh-codec': [],
  'packages/dsh-session': ['dsh-codec'],
  'packages/dsh-agent': ['dsh-session', 'dsh-codec'],
  'packages/dsh-postgres': ['dsh-session', 'dsh-codec'],
  'packages/dsh-host': ['dsh-agent', 'dsh-session', 'dsh-codec', 'dsh-import'],
  'packages/dsh-import': ['dsh-codec'],
  'packages/dsh-workspace': [],
  'packages/dsh-claude-agent-sdk': ['dsh-session', 'dsh-codec', 'dsh-import'],
  'apps/demo': ['dsh-host', 'dsh-postgres', 'dsh-workspace'],
  'apps/cli': ['dsh-host', 'dsh-codec', 'dsh-import', 'dsh-postgres', 'dsh-workspace'],
};

/**
 * What a unit's tests (and their fixtures) may import beyond its layer: stores its users plug in,
 * which the tests must run against but the package itself never imports.
 */
/** @type {Record<string, readonly string[]>} */
export const TEST_IMPORTS = {
  // SPEC §2 keeps the agent and the host on their arrows: they take a workspace store by shape
  // (`CheckpointStore`, `HostCheckpointStore`); their tests check it with the real one.
  'packages/dsh-agent': ['dsh-workspace'],
  'packages/dsh-host': ['dsh-workspace'],
  'packages/dsh-claude-agent-sdk': ['dsh-postgres'],
  // The CLI shows transcripts that package writes; its tests write them with it.
  'apps/cli': ['dsh-claude-agent-sdk'],
};

/**
 * Who may import `dsh-session/internal` (the backend fast paths and lease helpers): dsh's own storage
 * packages. dsh-session's tests may too; its other files never do (the main entry stays free of it).
 */
/** @type {readonly string[]} */
export const INTERNAL_ENTRY_USERS = ['packages/dsh-postgres'];

/** Workspace package names, so a bare import can be recognised as one of ours. */
/** @type {readonly string[]} */
export const WORKSPACE_PACKAGES = [
  'dsh-codec',
  'dsh-session',
  'dsh-agent',
  'dsh-host',
  'dsh-import',
  'dsh-postgres',
  'dsh-claude-agent-sdk',
  'dsh-workspace',
];
