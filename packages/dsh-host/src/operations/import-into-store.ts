/**
 * @module `importIntoStore`: the one way transcripts get into a store — the CLI's `dsh import`, `host.importTranscripts`
 * and `POST /api/import` all call it. Every file is read first (nothing is stored when one is
 * refused), then linked (subagents to their spawning call, Codex forks to their parent, also when the
 * parent is stored), then each session is stored atomically, parents first.
 */
import { isDeepStrictEqual } from 'node:util';
import { isPrintableTitle, type SessionStore } from 'dsh-session';
import { importTranscript, ImportError, linkImports, type ImportedSession, type ImportResult, type TranscriptFormat } from 'dsh-import';
import { HostError } from '../host-error.js';

/** One transcript to import: its text and, for messages, the name of the file it came from. */
export type ImportInput = { text: string; name?: string };

/** Options of `importIntoStore`. */
export type ImportIntoStoreOptions = {
  /** The source format of every input; `auto` (default) recognises each. */
  format?: 'auto' | TranscriptFormat;
  /** A title for the first input's main session (appended as `session/title`). */
  title?: string;
  /**
   * Leave sessions the store has as they are instead of refusing (`SESSION_EXISTS`): those imported
   * before, and those stored with other events (e.g. a Claude Code session that went on since), with
   * their fork children from the same file (`skipped`, and a warning).
   */
  skipImported?: boolean;
  /** Refuse a line that is not JSON (`MALFORMED_LINE`) instead of skipping it with a warning naming it. */
  strict?: boolean;
};

/**
 * One session of an import: `kept` when an earlier import stored exactly these events (it may have
 * grown since); `skipped` (only with `skipImported`) when the store holds it, or its parent, with other events.
 */
export type ImportedSessionSummary = {
  id: string;
  parentSession: string | null;
  forkCut: number | null;
  events: number;
  kept?: true;
  skipped?: true;
};

/** What one input became. */
export type ImportedFile = { name?: string; format: TranscriptFormat; warnings: string[]; sessions: ImportedSessionSummary[] };

/** What `importIntoStore` returns: one entry per input, in the order the sessions were stored (parents first). */
export type ImportReport = { files: ImportedFile[] };

function withTitle(session: ImportedSession, title: string): ImportedSession {
  const last = session.events[session.events.length - 1];
  const event = { seq: session.events.length, type: 'session/title', time: last?.time ?? session.header.createdAt, data: { title } };
  return { header: session.header, events: [...session.events, event] };
}

/** Whether the stored session begins with exactly `artifact`'s events (an earlier import of the same file). */
async function isStoredAs(store: SessionStore, artifact: ImportedSession): Promise<boolean> {
  const stored = await store.observe(artifact.header.id);
  return (
    isDeepStrictEqual(stored.header.parentSession, artifact.header.parentSession) &&
    stored.events.length >= artifact.events.length &&
    artifact.events.every((event, index) => isDeepStrictEqual(stored.events[index], event))
  );
}

function read(input: ImportInput, format: 'auto' | TranscriptFormat, strict: boolean): ImportResult & { name?: string } {
  try {
    return { ...importTranscript(input.text, { format, strict }), ...(input.name === undefined ? {} : { name: input.name }) };
  } catch (error) {
    if (!ImportError.is(error)) throw error;
    throw new HostError(error.code, input.name === undefined ? error.message : `${input.name}: ${error.message}`, { cause: error });
  }
}

/**
 * Imports `inputs` into `store`. Refuses an unreadable input (its `ImportError` code, naming the
 * file), a session id the store holds with other events (`SESSION_EXISTS`, nothing stored), and —
 * unless `skipImported` — inputs whose every session is stored already. Sessions a cut-short earlier
 * import stored are kept, the rest added.
 */
export async function importIntoStore(
  store: SessionStore,
  inputs: readonly ImportInput[],
  options: ImportIntoStoreOptions = {},
): Promise<ImportReport> {
  const format = options.format ?? 'auto';
  if (options.title !== undefined && (options.title.trim() === '' || !isPrintableTitle(options.title))) {
    throw new HostError(
      'INVALID_TITLE',
      `Invalid title ${JSON.stringify(options.title)}: expected printable text without control characters.`,
    );
  }
  const results = inputs.map((input) => read(input, format, options.strict === true));
  const first = results[0];
  if (first !== undefined && options.title !== undefined)
    first.sessions[0] = withTitle(first.sessions[0] as ImportedSession, options.title);
  const lookup = async (id: string): Promise<ImportedSession | undefined> => {
    if (!(await store.has(id))) return undefined;
    const stored = await store.observe(id);
    return { header: stored.header, events: [...stored.events] };
  };
  const linked = (await linkImports(results, lookup)) as (ImportResult & { name?: string })[];
  const kept = new Set<string>();
  const skipped = new Set<string>();
  const all = linked.flatMap((result) => result.sessions);
  for (const result of linked) {
    for (const session of result.sessions) {
      const { id, parentSession } = session.header;
      const stored = await store.has(id);
      if (stored && (await isStoredAs(store, session))) {
        kept.add(id);
        continue;
      }
      const differs = stored || (parentSession !== undefined && skipped.has(parentSession));
      if (!differs) continue;
      if (options.skipImported !== true) {
        throw new HostError(
          'SESSION_EXISTS',
          `Session ${id} is already in the store with other events than this import has for it; nothing was imported.`,
        );
      }
      skipped.add(id);
      result.warnings.push(
        stored
          ? `session ${id} is stored with other events (the source went on since it was imported?); left as it is`
          : `session ${id} not imported: its parent ${String(parentSession)} was left as it is`,
      );
    }
  }
  if (all.length > 0 && kept.size === all.length && options.skipImported !== true) {
    throw new HostError(
      'SESSION_EXISTS',
      `Already imported: ${[...kept].join(', ')} ${kept.size === 1 ? 'is' : 'are'} in the store; nothing was imported. Open ${all[0]?.header.id ?? ''} instead.`,
    );
  }
  try {
    for (const session of all) if (!kept.has(session.header.id) && !skipped.has(session.header.id)) await store.import(session);
  } catch (error) {
    throw HostError.wrap(error) ?? error;
  }
  return {
    files: linked.map((result) => ({
      ...(result.name === undefined ? {} : { name: result.name }),
      format: result.format,
      warnings: result.warnings,
      sessions: result.sessions.map(({ header, events }) => ({
        id: header.id,
        parentSession: header.parentSession ?? null,
        forkCut: header.forkCut ?? null,
        events: events.length,
        ...(kept.has(header.id) ? { kept: true as const } : {}),
        ...(skipped.has(header.id) ? { skipped: true as const } : {}),
      })),
    })),
  };
}
