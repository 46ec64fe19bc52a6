/** @module `observation`: one immutable `Observation` of a session (a live snapshot, or its stored events). */
import type { SessionEvent } from 'dsh-codec';
import { latestMetadata } from 'dsh-session';
import { pendingInputsOf } from 'dsh-agent';
import type { HostContext } from '../host-context.js';
import type { Observation } from '../host-types.js';
import { liveCwd, sharingCwd } from './list-sessions.js';

/**
 * One immutable observation (SPEC §5.4, §12): the store's observation — a snapshot of a live log or
 * the stored events of a cold one, read once — plus what this host knows (queued input, cwd).
 * @internal
 */
export async function observation(context: HostContext, id: string): Promise<Observation> {
  const { store, live, readFrom } = context;
  const source = await store.observe(id);
  const { header, events } = source;
  const entry = live.get(id);
  if (entry !== undefined && source.live) {
    const { session, agent } = entry;
    const cwd = liveCwd(entry);
    const pendingSeqs = new Set(agent.pendingInputs().map((input) => input.seq));
    const observed: Observation = {
      header,
      events,
      firstLifecycleSeq: session.firstLifecycleSeq,
      live: true,
      needsRepair: false,
      pendingInputs: events.filter((event) => pendingSeqs.has(event.seq)),
      formatVersion: readFrom.get(id) ?? source.formatVersion,
      ...(cwd === undefined ? {} : { cwd }),
      sharesCwdWith: sharingCwd(context, id, cwd),
    };
    const title = session.title;
    if (title !== undefined) observed.title = title;
    return observed;
  }
  // Title and cwd as the store's one derivation reads them: from the log's end, not a scan of `events`.
  const { title, cwd } = latestMetadata(source);
  const observed: Observation = {
    header,
    events,
    // A cold session has no lifecycle; the next one would start after the stored prefix.
    firstLifecycleSeq: events.length,
    live: false,
    needsRepair: source.needsRepair,
    pendingInputs: pendingInputsOf(events, header.inheritedEventCount).map((input) => events[input.seq] as SessionEvent),
    formatVersion: readFrom.get(id) ?? source.formatVersion,
    sharesCwdWith: sharingCwd(context, id, cwd),
  };
  if (title !== undefined) observed.title = title;
  if (cwd !== undefined) observed.cwd = cwd;
  return observed;
}
