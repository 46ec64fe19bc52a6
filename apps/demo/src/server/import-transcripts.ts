/**
 * `POST /api/import` of the demo: a transcript file's text (Claude Code, Codex or pi) in a JSON
 * body, read with dsh-import's `importTranscript`, stored session by session with `store.import`
 * (each atomically; the main line first, its fork children after). Nothing is stored when the file
 * is refused, when all its sessions are already stored, or when one of them is stored with other
 * events; sessions an interrupted import of the same file stored are kept and the rest added.
 */
import { isDeepStrictEqual } from 'node:util';
import { SessionError, type SessionStore } from 'dsh-host';
import { importTranscript, ImportError } from 'dsh-import';

/** A JSON answer: status and body (`{ error: { code, message } }` for a refusal). */
export type ImportReply = { status: number; body: unknown };

/** One stored session of an import, as the page draws the tree; `kept`: it was already stored by an earlier, interrupted import. */
export type ImportedSession = { id: string; parentSession: string | null; forkCut: number | null; events: number; kept?: true };

/** The 201 body: the format read, its warnings, and the sessions stored (main line first). */
export type ImportAnswer = { format: string; warnings: string[]; sessions: ImportedSession[] };

const FORMATS = ['auto', 'claude-code', 'codex', 'pi'] as const;
type Format = (typeof FORMATS)[number];

const refuse = (status: number, code: string, message: string): ImportReply => ({ status, body: { error: { code, message } } });

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? `an object with ${Object.keys(value).map((key) => JSON.stringify(key)).join(', ') || 'no keys'}` : typeof value;
}

/** Checks the body: `{ text: string, format?: 'auto'|'claude-code'|'codex'|'pi' }`. */
function parseBody(body: unknown): { text: string; format: Format } | ImportReply {
  const expected = 'expected { "text": "<the transcript file>", "format"?: "auto" | "claude-code" | "codex" | "pi" }';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse(400, 'BAD_REQUEST', `${expected}, received ${describe(body)}.`);
  const { text, format = 'auto' } = body as { text?: unknown; format?: unknown };
  if (typeof text !== 'string') return refuse(400, 'BAD_REQUEST', `${expected}; "text" is ${text === undefined ? 'missing' : describe(text)}.`);
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) {
    return refuse(400, 'BAD_REQUEST', `"format": expected one of ${FORMATS.join(', ')}, received ${JSON.stringify(format)}.`);
  }
  return { text, format: format as Format };
}

type Artifact = { header: { id: string }; events: readonly unknown[] };

/** Whether the stored session `artifact.header.id` begins with exactly the artifact's events (it may have grown since). */
async function isThisImport(store: SessionStore, artifact: Artifact): Promise<boolean> {
  const stored = await store.inspect(artifact.header.id);
  return stored.events.length >= artifact.events.length && artifact.events.every((event, index) => isDeepStrictEqual(stored.events[index], event));
}

/** Imports the transcript in `body` into `store`; 201 with the stored tree, 400 with the ImportError code, 409 when already imported or in conflict. */
export async function importTranscripts(store: SessionStore, body: unknown): Promise<ImportReply> {
  const parsed = parseBody(body);
  if ('status' in parsed) return parsed;
  let result;
  try {
    result = importTranscript(parsed.text, { format: parsed.format });
  } catch (error) {
    if (!ImportError.is(error)) throw error;
    return refuse(400, error.code, error.message);
  }
  // Sessions of this file already stored: left as they are when they are this import (continued or
  // not), so a file whose import was cut short (a killed server) can be dropped again to finish it.
  const kept = new Set<string>();
  for (const session of result.sessions) {
    if (!(await store.has(session.header.id))) continue;
    if (!(await isThisImport(store, session))) {
      return refuse(409, 'SESSION_EXISTS', `Session ${session.header.id} is already in the store with other events than this file has for it; nothing was imported.`);
    }
    kept.add(session.header.id);
  }
  if (kept.size === result.sessions.length) {
    return refuse(409, 'SESSION_EXISTS', `This transcript was imported before: ${[...kept].join(', ')} already in the store; nothing was imported. Open ${result.sessions[0]?.header.id ?? ''} instead.`);
  }
  try {
    for (const session of result.sessions) if (!kept.has(session.header.id)) await store.import(session);
  } catch (error) {
    // A concurrent import of the same file won the race for an id.
    if (SessionError.is(error) && error.code === 'SESSION_EXISTS') return refuse(409, 'SESSION_EXISTS', error.message);
    throw error;
  }
  const answer: ImportAnswer = {
    format: result.format,
    warnings: result.warnings,
    sessions: result.sessions.map(({ header, events }) => ({
      id: header.id,
      parentSession: header.parentSession ?? null,
      forkCut: header.forkCut ?? null,
      events: events.length,
      ...(kept.has(header.id) ? { kept: true } : {}),
    })),
  };
  return { status: 201, body: answer };
}
