/**
 * Links sessions imported from several files: a subagent to the call of its main session that
 * spawned it, and a Codex fork rollout (which holds only its own records after `history_base`) to
 * the rollout it forked from, as an exact fork child. Parents may be in the same set or stored
 * already (`lookup`); order of the files does not matter.
 */
import { CURRENT_FORMAT_VERSION, validate, type JsonObject, type SessionEvent } from 'dsh-codec';
import type { ImportedSession } from './build-sessions.js';
import { IMPORT_SOURCE_EVENT, importSourceOf, type ImportSource } from './import-source.js';
import { toSessionId, type ImportResult } from './import-transcript.js';

/** A stored session by dsh id, or undefined when the store has none. */
export type LinkLookup = (sessionId: string) => Promise<ImportedSession | undefined>;

type Mutable = { -readonly [K in keyof SessionEvent]: SessionEvent[K] };

const SURFACE = new Set(['user/message', 'assistant/message', 'tool/result']);

function resultTexts(event: SessionEvent): { callId: string; text: string } | undefined {
  if (event.type !== 'tool/result') return undefined;
  const message = (event.data as { message?: { callId?: unknown; content?: unknown } }).message;
  if (typeof message?.callId !== 'string' || !Array.isArray(message.content)) return undefined;
  const text = (message.content as { type?: unknown; text?: unknown }[])
    .map((block) => (typeof block.text === 'string' ? block.text : ''))
    .join('\n');
  return { callId: message.callId, text };
}

/** The call of `main` that spawned the subagent `id` (source id `sourceId`), if `main` says. */
function spawningCall(main: ImportedSession, id: string, sourceId: string): string | undefined {
  const listed = Object.entries(importSourceOf(main.events)?.subagents ?? {}).find(([, subagent]) => subagent === id)?.[0];
  if (listed !== undefined) return listed;
  // Codex: the spawn call's output names the new thread.
  for (const event of main.events) {
    const result = resultTexts(event);
    if (result !== undefined && result.text.includes(sourceId)) return result.callId;
  }
  return undefined;
}

/** `session` with its `import/source` event(s) given `spawnedBy` (every copy, so fork prefixes stay equal). */
function withSpawnedBy(session: ImportedSession, spawnedBy: string): ImportedSession {
  const events = session.events.map((event) =>
    event.type === IMPORT_SOURCE_EVENT ? { ...event, data: { ...(event.data as JsonObject), spawnedBy } } : event,
  );
  return { header: session.header, events };
}

/** The source ordinal of a parent's event, from its message id `L<line>`; -1 for inherited events. */
function ordinalOf(parent: ImportedSession, firstOrdinal: number, event: SessionEvent): number | undefined {
  if (event.seq < parent.header.inheritedEventCount) return -1;
  if (!SURFACE.has(event.type)) return undefined;
  const id = (event.data as { message?: { id?: unknown } }).message?.id;
  const line = typeof id === 'string' ? /^L(\d+)/.exec(id)?.[1] : undefined;
  return line === undefined ? undefined : firstOrdinal + Number(line) - 1;
}

function shifted(event: SessionEvent, seq: number, offset: number, turns: number): SessionEvent {
  const moved: Mutable = { ...event, seq };
  if (event.surfaceOp !== undefined)
    moved.surfaceOp = { op: 'replace', start: event.surfaceOp.start + offset, end: event.surfaceOp.end + offset };
  const data = event.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const copy: JsonObject = { ...data };
    if (typeof copy.turn === 'number') copy.turn += turns;
    if (event.type.startsWith('compaction/')) {
      if (typeof copy.startSeq === 'number') copy.startSeq += offset;
      const replace = copy.replace;
      if (
        typeof replace === 'object' &&
        replace !== null &&
        !Array.isArray(replace) &&
        typeof replace.start === 'number' &&
        typeof replace.end === 'number'
      ) {
        copy.replace = { start: replace.start + offset, end: replace.end + offset };
      }
    }
    moved.data = copy;
  }
  return moved;
}

/**
 * `child` (a fork rollout's own records) as a fork child of `parent`: the parent's events through
 * the last closed turn before `endOrdinalExclusive`, the inherited marker, then the child's own
 * events (seqs and turn numbers continued). A warning instead when that would not be a valid log.
 */
export function codexForkChild(
  parent: ImportedSession,
  child: ImportedSession,
  endOrdinalExclusive: number,
): { session?: ImportedSession; warning?: string } {
  const firstOrdinal = importSourceOf(parent.events)?.firstOrdinal ?? 0;
  const events = parent.events;
  let bound = events.findIndex((event) => (ordinalOf(parent, firstOrdinal, event) ?? -1) >= endOrdinalExclusive);
  if (bound === -1) bound = events.length;
  let open = false;
  const openAfter = events.map((event) => (open = event.type === 'turn/start' ? true : event.type === 'turn/end' ? false : open));
  let cut = bound - 1;
  while (cut >= 0 && openAfter[cut] === true) cut--;
  const dropped = events.slice(cut + 1, bound).filter((event) => SURFACE.has(event.type)).length;
  const prefix = events.slice(0, cut + 1);
  let turns = 0;
  for (const event of prefix) if (event.type === 'turn/start') turns = (event.data as { turn: number }).turn;
  const time = prefix[prefix.length - 1]?.time ?? child.header.createdAt;
  const seeded: SessionEvent[] = [...prefix, { seq: cut + 1, type: 'session/end-seed', time, data: { inherited: true } }];
  const offset = cut + 2;
  for (const event of child.events) seeded.push(shifted(event, seeded.length, offset, turns));
  const session: ImportedSession = {
    header: { ...child.header, parentSession: parent.header.id, forkCut: cut, inheritedEventCount: cut + 1 },
    events: seeded,
  };
  const issues = validate(CURRENT_FORMAT_VERSION, session);
  if (issues.length > 0)
    return { warning: `cannot be a fork child of ${parent.header.id} (${issues[0]?.message ?? ''}); imported as its own session` };
  const note =
    dropped > 0
      ? `its base ends inside a turn of ${parent.header.id}: the child inherits through seq ${cut}, ${dropped} message(s) of that turn are left out`
      : undefined;
  return { session, ...(note === undefined ? {} : { warning: note }) };
}

/**
 * Links `results` (one per file, in any order) with each other and with stored sessions: subagent
 * sessions get `spawnedBy` when their main session says which call spawned them; a Codex fork
 * rollout whose base is found becomes its fork child (else a warning names the missing parent).
 * Returns the results with parents before the children that need them.
 */
export async function linkImports(results: readonly ImportResult[], lookup: LinkLookup): Promise<ImportResult[]> {
  const byId = new Map<string, ImportedSession>();
  const codexBySource = new Map<string, ImportedSession>();
  for (const result of results) for (const session of result.sessions) byId.set(session.header.id, session);
  const find = async (id: string): Promise<ImportedSession | undefined> => byId.get(id) ?? (await lookup(id));
  const out: ImportResult[] = [];
  for (const result of parentsFirst(results)) {
    let sessions = result.sessions;
    const warnings = [...result.warnings];
    const main = sessions[0];
    const source: ImportSource | undefined = main === undefined ? undefined : importSourceOf(main.events);
    if (main !== undefined && source?.mainSession !== undefined && source.spawnedBy === undefined) {
      const owner = await find(source.mainSession);
      const call = owner === undefined ? undefined : spawningCall(owner, main.header.id, source.sourceId);
      if (call !== undefined) sessions = sessions.map((session) => withSpawnedBy(session, call));
    }
    const base = source?.historyBase;
    if (main !== undefined && base !== undefined && main.header.parentSession === undefined) {
      const parent = codexBySource.get(base.threadId) ?? (await lookup(toSessionId(base.threadId)));
      if (parent === undefined) {
        warnings.push(
          `fork of Codex thread ${base.threadId}: that rollout is neither in this import nor stored; imported as its own session (import the parent rollout first to link them)`,
        );
      } else {
        const child = codexForkChild(parent, sessions[0] as ImportedSession, base.endOrdinalExclusive);
        if (child.warning !== undefined) warnings.push(`fork of Codex thread ${base.threadId}: ${child.warning}`);
        if (child.session !== undefined) sessions = [child.session, ...sessions.slice(1)];
      }
    }
    const first = sessions[0];
    if (first !== undefined && source?.format === 'codex') codexBySource.set(source.sourceId, first);
    for (const session of sessions) byId.set(session.header.id, session);
    out.push({ ...result, sessions, warnings });
  }
  return out;
}

/** `results` with every Codex fork rollout after the rollout its base names, when that is among them. */
function parentsFirst(results: readonly ImportResult[]): ImportResult[] {
  const sourceOf = (result: ImportResult) => (result.sessions[0] === undefined ? undefined : importSourceOf(result.sessions[0].events));
  const present = new Set(results.map((result) => sourceOf(result)?.sourceId));
  const placed = new Set<string | undefined>();
  const ordered: ImportResult[] = [];
  let pending = [...results];
  while (pending.length > 0) {
    const ready = pending.filter((result) => {
      const base = sourceOf(result)?.historyBase?.threadId;
      return base === undefined || !present.has(base) || placed.has(base);
    });
    // A cycle of bases: the rest in their given order (each then imports as its own session or links to what is placed).
    const next = ready.length > 0 ? ready : pending;
    for (const result of next) {
      ordered.push(result);
      placed.add(sourceOf(result)?.sourceId);
    }
    pending = pending.filter((result) => !next.includes(result));
  }
  return ordered;
}
