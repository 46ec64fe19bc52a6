/**
 * Shapes of the dsh HTTP API (SPEC §10) as the page receives them: the host's own types, imported
 * type-only, so nothing of dsh-host is bundled into the page and no shape is copied by hand.
 * Renderers still read event `data` defensively.
 */
import type { AgentDelta, ForkResult, Observation, SessionListItem, WorktreeInfo } from 'dsh-host';

export type { ForkResult, Observation, WorktreeInfo };

/** One row of `GET /api/sessions`. */
export type SessionRow = SessionListItem;

/** One event of a session log (SPEC §3.1). */
export type WireEvent = Observation['events'][number];

/** The header of a session (SPEC §7). */
export type WireHeader = Observation['header'];

/**
 * The format version the host writes (dsh-codec's `CURRENT_FORMAT_VERSION`; the page does not bundle
 * the codec). Typed by the header the host returns, whose `version` is the current format's literal:
 * when the format moves on, the page's typecheck fails until this value follows.
 */
export const CURRENT_FORMAT_VERSION: WireHeader['version'] = 7;

/** An ephemeral `event: delta` frame of the event stream: streamed text of a step, never persisted. */
export type WireDelta = AgentDelta;
