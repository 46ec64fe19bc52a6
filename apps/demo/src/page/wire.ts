/**
 * Shapes of the dsh HTTP API (SPEC §10) as the page receives them. The page is a plain HTTP
 * client: it reads JSON and never trusts more of it than it renders.
 */

/** One event of a session log (SPEC §3.1). `data` is read defensively by the renderers. */
export type WireEvent = {
  seq: number;
  type: string;
  time: number;
  data: unknown;
  surfaceOp?: { op: 'replace'; start: number; end: number };
  ignorable?: true;
};

/** The header of a session (SPEC §7, V4). */
export type WireHeader = {
  id: string;
  createdAt: number;
  parentSession?: string;
  forkCut?: number;
  inheritedEventCount: number;
  cwd?: string;
};

/**
 * `GET /api/sessions/:id` (read-only) and `POST /api/sessions/:id/open` (makes it live, repairing a
 * crash). `formatVersion` is the format the stored log was read from, when the host reports it.
 */
export type Observation = {
  header: WireHeader;
  events: WireEvent[];
  firstLifecycleSeq: number;
  live: boolean;
  needsRepair: boolean;
  pendingInputs: WireEvent[];
  formatVersion?: number;
  title?: string;
};

/** One row of `GET /api/sessions`. */
export type SessionRow = {
  id: string;
  title?: string;
  parentSession?: string;
  forkCut?: number;
  createdAt: number;
  updatedAt: number;
  lastSeq: number;
  live: boolean;
  /** `running`, `idle`, `stored`, `needs-repair` or `busy`. */
  status?: string;
  formatVersion?: number;
};

/** `POST /api/sessions/:id/fork` → 201. */
export type ForkResult = { sessionId: string; parentSession: string; forkCut: number; inheritedEventCount: number };
