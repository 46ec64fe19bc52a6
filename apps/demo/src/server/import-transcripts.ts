/**
 * `POST /api/import` of the demo: a transcript file's text (Claude Code, Codex or pi) in a JSON
 * body, read with dsh-import's `importTranscript`, stored session by session with `store.import`
 * (each atomically; the main line first, its fork children after). Nothing is stored when the file
 * is refused or when any of its sessions is already in the store.
 */
import { SessionError, type SessionStore } from 'dsh-host';
import { importTranscript, ImportError } from 'dsh-import';

/** A JSON answer: status and body (`{ error: { code, message } }` for a refusal). */
export type ImportReply = { status: number; body: unknown };

/** One stored session of an import, as the page draws the tree. */
export type ImportedSession = { id: string; parentSession: string | null; forkCut: number | null; events: number };

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

/** Imports the transcript in `body` into `store`; 201 with the stored tree, 400 with the ImportError code, 409 when already imported. */
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
  const taken: string[] = [];
  for (const session of result.sessions) if (await store.has(session.header.id)) taken.push(session.header.id);
  if (taken.length > 0) {
    return refuse(409, 'SESSION_EXISTS', `This transcript was imported before: ${taken.join(', ')} already in the store; nothing was imported. Open ${taken[0] ?? ''} instead.`);
  }
  try {
    for (const session of result.sessions) await store.import(session);
  } catch (error) {
    // A concurrent import of the same file won the race for an id.
    if (SessionError.is(error) && error.code === 'SESSION_EXISTS') return refuse(409, 'SESSION_EXISTS', error.message);
    throw error;
  }
  const answer: ImportAnswer = {
    format: result.format,
    warnings: result.warnings,
    sessions: result.sessions.map(({ header, events }) => ({ id: header.id, parentSession: header.parentSession ?? null, forkCut: header.forkCut ?? null, events: events.length })),
  };
  return { status: 201, body: answer };
}
