/**
 * @module fork-peers
 * `host.peers` (SPEC §20): one observation of a baseline, one cut (the store's rule, applied once),
 * and N children forked from that same observation (one read, one validation), each with its own
 * title and config, each prompt queued as its peer's first turn. `host.turnResult` waits for such a turn.
 */
import { resolve as resolvePath } from 'node:path';
import type { SessionConfig, SessionNoteData } from 'dsh-codec';
import { checkTitle, LATEST_CLOSED_TURN, PrintableTitle, printableTitle } from 'dsh-session';
import { HostError } from '../host-error.js';
import type { HostContext } from '../host-context.js';
import type { PeerRequest, PeersOptions, PeersResult, QueryResult } from '../host-types.js';
import { listSessions, resolveRef } from './list-sessions.js';
import { assertOpen, liveEntry, openLive, takeLiveSlots } from './session-registry.js';
import { staleFilesNotes } from './stale-files-note.js';
import { inheritCheckpoints } from './workspace-checkpoints.js';
import { defaultPeerNames } from './default-peer-names.js';
import { peerDirectories, type PeerDirectories } from './peer-worktrees.js';
import { withStoredCheckpointsChoice } from './stored-checkpoints-choice.js';

/** A requested title checked once: a `PrintableTitle` as it came, a string by the title rule (`INVALID_TITLE`). */
function checkedTitle(title: string | PrintableTitle): PrintableTitle {
  if (PrintableTitle.is(title)) return title;
  const checked = printableTitle(title);
  if (checked === undefined) checkTitle(title); // throws, naming the control character
  return checked as PrintableTitle;
}

/**
 * Every peer's title: the requested ones, checked once and carried to the store as `PrintableTitle`s
 * (refused `NAME_TAKEN` when a session or another peer has it), the rest defaulted.
 */
function peerTitles(requests: readonly PeerRequest[], baseName: string, taken: ReadonlySet<string>): (string | PrintableTitle)[] {
  const requested = new Set<string>();
  const checked: (PrintableTitle | undefined)[] = [];
  for (const request of requests) {
    const title = request.title === undefined ? undefined : checkedTitle(request.title);
    checked.push(title);
    if (title === undefined) continue;
    if (taken.has(title.text) || requested.has(title.text)) {
      throw new HostError(
        'NAME_TAKEN',
        `Peer name '${title.text}' is taken${requested.has(title.text) ? ' by another peer of this request' : ' by an existing session'}: expected a name no session carries, or none (peers default to ${baseName}-1, -2, …).`,
      );
    }
    requested.add(title.text);
  }
  const defaults = defaultPeerNames(baseName, new Set([...taken, ...requested]), checked.filter((title) => title === undefined).length);
  return checked.map((title) => title ?? (defaults.shift() as string));
}

/**
 * Forks `options.peers.length` siblings of one baseline at one cut: the baseline is observed once,
 * the cut (`atSeq` exactly, else SPEC §5.4's omitted rule) selected by the store on that one immutable
 * observation for each child, every child forked at once (their writes overlap and their creates share
 * the folder's fsyncs). Every prompt is queued once every fork settled, so the prompts
 * run concurrently and no peer's first turn (which reads its whole inherited history) holds the event
 * loop while a sibling is being forked; each child's seed is durable before its prompt is queued. A
 * failed fork rejects the call once its siblings settled (those stay forked, their prompts queued). The
 * children's live slots are taken first (`TOO_MANY_SESSIONS`, nothing forked, when the host cannot run
 * them all).
 * @internal
 */
export async function forkPeers(context: HostContext, baselineRef: string, options: PeersOptions): Promise<PeersResult> {
  const { store } = context;
  assertOpen(context);
  if (options.peers.length === 0)
    throw new HostError('INVALID_OPTION', 'Peers need at least one prompt: expected peers: [{ prompt }, …], received none.');
  const blank = options.peers.findIndex((peer) => peer.prompt.trim() === '');
  if (blank >= 0)
    throw new HostError('INVALID_OPTION', `Peer ${String(blank + 1)}'s prompt is empty: expected text for each peer's first turn.`);
  const baseline = await resolveRef(context, baselineRef);
  const sessions = await listSessions(context);
  const taken = new Set(sessions.flatMap((item) => (item.title === undefined ? [] : [item.title])));
  const baseName = sessions.find((item) => item.id === baseline)?.title ?? baseline;
  const titles = peerTitles(options.peers, baseName, taken);

  // One observation: every child is seeded from it. The store selects each child's cut by the same rule
  // on that one immutable observation (reading only the events the rule needs, once: the observation
  // keeps what it read), so every peer gets the same cut; each child's config is the baseline's at the
  // cut with the peer's own fields over it, applied by the store.
  const source = await store.observe(baseline);
  const notesOf = staleFilesNotes(context, source, options.atSeq ?? LATEST_CLOSED_TURN);
  // Every child's live slot first: more peers than this host can run at once are refused before any is forked.
  const slots = await takeLiveSlots(context, options.peers.length);
  const forked = new Set<number>();
  let made: PeerDirectories | undefined;
  try {
    // worktree: every peer's directory at the cut first, each peer's id recorded before it (SPEC §23).
    if (options.worktree === true) made = await peerDirectories(context, source, options, titles, new Set(sessions.map((item) => item.id)));
    const requests = options.peers.map((request, index) => {
      const configPatch: SessionConfig = { ...withStoredCheckpointsChoice(context, request.config) };
      if (configPatch.cwd !== undefined) configPatch.cwd = resolvePath(configPatch.cwd);
      const directory = made?.peers[index];
      if (directory !== undefined) configPatch.cwd = directory.worktree.dir;
      const id = directory?.id ?? request.id;
      const workspace = directory?.workspace ?? request.workspace;
      return { prompt: request.prompt, configPatch, id, workspace, worktree: directory?.worktree };
    });
    /** Forks peer `index` and publishes it live; `queue()` queues its prompt and says the peer. The child's cut comes back beside it. */
    const forkPeer = async (
      index: number,
      atSeq: number | typeof LATEST_CLOSED_TURN,
      notes: SessionNoteData[] | undefined,
    ): Promise<{ queue: () => PeersResult['peers'][number]; cut: number }> => {
      const { prompt, configPatch, id, workspace, worktree } = requests[index] as (typeof requests)[number];
      const title = titles[index] as string | PrintableTitle;
      const entry = await openLive(
        context,
        () =>
          store.fork(source, {
            atSeq,
            title,
            configPatch,
            ...(id === undefined ? {} : { id }),
            ...(workspace === undefined ? {} : { workspace }),
            ...(notes === undefined ? {} : { notes }),
          }),
        slots.shift(),
      );
      forked.add(index);
      const child = entry.session;
      await inheritCheckpoints(context, child.id, baseline);
      const queue = (): PeersResult['peers'][number] => {
        const { inputId } = entry.agent.enqueue(prompt);
        const peer: PeersResult['peers'][number] = {
          sessionId: child.id,
          title: PrintableTitle.is(title) ? title.text : title,
          inputId,
          cwd: entry.agent.cwd(),
        };
        if (worktree !== undefined) peer.worktree = worktree;
        return peer;
      };
      return { queue, cut: child.header.forkCut ?? -1 };
    };
    const rule = made !== undefined && made.cut !== -1 ? made.cut : (options.atSeq ?? LATEST_CLOSED_TURN);
    // Each peer's notes compare its files with the checkpoint at the cut: one comparison at a time.
    const notes: (SessionNoteData[] | undefined)[] = [];
    for (const { configPatch, workspace } of requests)
      notes.push(await notesOf({ configPatch, ...(workspace === undefined ? {} : { workspace }) }));
    // Every peer at once (their creates share the folder's fsyncs), each cut by the rule on the one observation.
    const outcomes = await Promise.allSettled(requests.map((_, index) => forkPeer(index, rule, notes[index])));
    // Every fork settled: the prompts now, in prompt order (a forked peer runs its prompt even when a sibling failed).
    const peers: PeersResult['peers'] = [];
    const cuts = new Set<number>();
    for (const outcome of outcomes) {
      if (outcome.status !== 'fulfilled') continue;
      peers.push(outcome.value.queue());
      cuts.add(outcome.value.cut);
    }
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const [cut] = cuts;
    if (cut === undefined || cuts.size !== 1)
      throw new HostError(
        'INTERNAL',
        `host.peers: expected every peer forked at one cut of one observation, received cuts ${[...cuts].join(', ')}.`,
      );
    return { baseline, cut, peers };
  } catch (error) {
    // The directories of peers that were not forked go (their intents with them); the forked ones run in theirs.
    if (made !== undefined) await made.undoExcept(forked);
    throw error;
  } finally {
    for (const giveBack of slots) giveBack();
  }
}

/**
 * Resolves when the turn that claims `inputId` on a live session ends, as `host.query()` reports a
 * turn (`INVALID_OPTION` for an input this host's agent of the session never saw).
 * @internal
 */
export async function turnResult(context: HostContext, ref: string, inputId: string): Promise<QueryResult> {
  const sessionId = await resolveRef(context, ref);
  const entry = await liveEntry(context, sessionId);
  const turn = await entry.agent.result(inputId);
  const result: QueryResult = { sessionId, result: turn.text, isError: turn.isError, stopReason: turn.reason.kind, turn: turn.turn };
  if (turn.reason.kind === 'error') {
    result.errorCode = turn.reason.error.code;
    result.errorMessage = turn.reason.error.message;
  }
  const { header } = entry.session;
  if (header.parentSession !== undefined) result.parentSession = header.parentSession;
  if (header.forkCut !== undefined) result.forkCut = header.forkCut;
  return result;
}
