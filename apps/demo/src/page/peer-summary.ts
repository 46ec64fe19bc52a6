/**
 * What a peer column shows above its transcript (SPEC §20): its tool calls and the files its
 * successful writing calls named, read from its events after the fork marker. Pure.
 */
import type { WireEvent } from './wire.js';

/** The writing tools and the argument naming what they change. */
const WRITING_TOOLS = new Set(['write_file', 'make_dir']);

/** A peer's own tool calls (after `inheritedEventCount`) by name, and the paths its successful writes named. */
export function peerSummary(events: readonly WireEvent[], inheritedEventCount: number): { toolCalls: string[]; files: string[] } {
  const toolCalls: string[] = [];
  const written = new Map<string, string>();
  const files = new Set<string>();
  for (const event of events.slice(inheritedEventCount)) {
    const data = event.data as { callId?: unknown; name?: unknown; arguments?: unknown; message?: { callId?: unknown; isError?: unknown } };
    if (event.type === 'tool/call' && typeof data.name === 'string') {
      toolCalls.push(data.name);
      if (WRITING_TOOLS.has(data.name) && typeof data.callId === 'string' && typeof data.arguments === 'string') {
        try {
          const path = (JSON.parse(data.arguments) as { path?: unknown }).path;
          if (typeof path === 'string') written.set(data.callId, path);
        } catch {
          // malformed arguments changed nothing
        }
      }
    }
    if (event.type === 'tool/result' && data.message?.isError === false && typeof data.message.callId === 'string') {
      const path = written.get(data.message.callId);
      if (path !== undefined) files.add(path);
    }
  }
  return { toolCalls, files: [...files].sort() };
}

/** The peers board's address: `#/peers/<baseline>/<id>,<id>…`. */
export function peersHash(baseline: string, ids: readonly string[]): string {
  return `#/peers/${encodeURIComponent(baseline)}/${ids.map((id) => encodeURIComponent(id)).join(',')}`;
}

/** The baseline and peer ids of a peers board address, or `undefined` for any other hash. */
export function parsePeersHash(hash: string): { baseline: string; ids: string[] } | undefined {
  const match = /^#\/peers\/([^/]+)\/(.+)$/.exec(hash);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return {
    baseline: decodeURIComponent(match[1]),
    ids: match[2]
      .split(',')
      .filter((id) => id !== '')
      .map((id) => decodeURIComponent(id)),
  };
}
