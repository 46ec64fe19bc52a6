/**
 * The session a command's ID|NAME names: a dsh session, else — when no dsh session has that id or
 * name — the Claude Code, Codex or pi session file with that session id (found in the tool's own
 * folders), read as `dsh import` reads it without storing anything; such a file needs repair when its
 * last step has calls without results (what `dsh repair FILE` would close).
 */
import { CURRENT_FORMAT_VERSION } from 'dsh-codec';
import type { Host, Observation } from 'dsh-host/core';
import type { OpenCall } from 'dsh-import';
import type { CliContext } from './cli-context.js';
import { findNativeSessionFile, type NativeTool } from './native-session-files.js';
import type { OptionValues } from './parse-command-line.js';
import { DEFAULT_MAX_INPUT_BYTES, readInputFile } from './read-input-file.js';
import { withHost } from './with-host.js';

/** Where an observation came from when it is a tool's session file, and the calls open at its end. */
export type NativeSource = { tool: NativeTool; file: string; openCalls: OpenCall[] };

function notFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SESSION_NOT_FOUND';
}

/** The session file of `ref` when `ref` is a tool's session id that names no dsh session; else undefined. */
export async function nativeFileUnlessStored(
  context: CliContext,
  values: OptionValues,
  ref: string,
): Promise<{ tool: NativeTool; file: string } | undefined> {
  const native = await findNativeSessionFile(context, ref);
  if (native === undefined) return undefined;
  try {
    // Resolving reads no events: an id is checked by name, a name against the summaries.
    await withHost(context, values, (host: Host) => host.resolve(ref));
    return undefined;
  } catch (error) {
    if (notFound(error)) return native;
    throw error;
  }
}

/** The observation of `ref`: the stored dsh session, else a tool's session file of that id, read (not stored). */
export async function observeSessionOrFile(
  context: CliContext,
  values: OptionValues,
  ref: string,
): Promise<{ observed: Observation; native?: NativeSource }> {
  try {
    return { observed: await withHost(context, values, (host) => host.observe(ref)) };
  } catch (error) {
    if (!notFound(error)) throw error;
    const native = await findNativeSessionFile(context, ref);
    if (native === undefined) throw error;
    const text = await readInputFile(context, native.file, DEFAULT_MAX_INPUT_BYTES);
    // dsh-import's readers load only for a tool's file: a dsh session needs none of them.
    const { importTranscript, repairNativeTranscript } = await import('dsh-import');
    const session = importTranscript(text).sessions[0];
    if (session === undefined) throw error;
    // The calls `dsh repair FILE` would close: the same reading of the file's main line.
    const openCalls = repairNativeTranscript(text, { now: Date.now() }).closedCalls;
    const title = session.events.findLast((event) => event.type === 'session/title')?.data as { title?: string } | undefined;
    const config = session.events.findLast(
      (event) => event.type === 'session/config' && typeof (event.data as { cwd?: unknown }).cwd === 'string',
    );
    const cwd = (config?.data as { cwd?: string } | undefined)?.cwd ?? session.header.cwd;
    const observed: Observation = {
      header: session.header,
      events: session.events,
      firstLifecycleSeq: 0,
      live: false,
      needsRepair: openCalls.length > 0,
      pendingInputs: [],
      formatVersion: CURRENT_FORMAT_VERSION,
      ...(title?.title === undefined ? {} : { title: title.title }),
      ...(cwd === undefined ? {} : { cwd }),
      sharesCwdWith: [],
    };
    return { observed, native: { ...native, openCalls } };
  }
}
