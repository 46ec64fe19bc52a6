/**
 * `dsh peers` (SPEC §20): one baseline forked into several peers at one cut, their prompts run
 * concurrently, each reported side by side; `--worktree` gives each peer its own git worktree and
 * `--remove` takes those worktrees down again.
 */
import { resolve } from 'node:path';
import type { SessionConfig, SessionEvent } from 'dsh-codec';
import { defaultPeerNames, selectForkCut, type Host } from 'dsh-host/core';
import { CliError } from '../cli-error.js';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { comparedSession, compareSessions, comparisonText } from '../peer-compare.js';
import { peerBlock, peerReport, writtenPaths, type PeerReport } from '../peer-report.js';
import { openWorktrees, workspaceAt, type PreparedPeers } from 'dsh-workspace';
import { asCliError } from '../fork-worktree-at-cut.js';
import { sharedCwdWarning } from '../shared-cwd-warning.js';
import { uncommittedChanges, uncommittedChangesSentence } from '../baseline-changes.js';
import { storeArguments } from '../store-arguments.js';
import { withHost } from '../with-host.js';
import { parseSeq } from '../parse-seq.js';
import { parseTools } from '../tools-option.js';
import { terminalBody, terminalLine } from '../terminal-text.js';

/**
 * The line `dsh peers --worktree` prints about what the peers' worktrees hold; from HEAD, it names the
 * baseline checkout's uncommitted changes (`changes`) the peers do not get.
 */
function peersWorkspaceLine(made: PreparedPeers, baselineId: string, cut: number, changes: readonly string[]): string {
  if (made.workspace === 'head')
    return `dsh: warning: ${baselineId} has no workspace checkpoint at or before seq ${String(cut)}: the peers' worktrees hold the repository's HEAD, not the files at the cut.${uncommittedChangesSentence(changes)}`;
  const skipped = (made.skipped ?? []).map((entry) => `${entry.path} (${entry.reason})`);
  return `dsh: the peers' files are the workspace at the cut (checkpoint at seq ${String(made.checkpointSeq)})${skipped.length === 0 ? '' : `; not in it: ${skipped.join(', ')}`}`;
}

/** A repeatable option's values (one string when given once, none when absent). */
function listOf(value: OptionValues[string]): string[] {
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

/** `dsh peers --remove NAME… [--force]`. */
async function removePeers(context: CliContext, values: OptionValues, names: readonly string[]): Promise<number> {
  if (names.length === 0)
    throw new CliError('USAGE', 'dsh peers --remove expects the names of the peers whose worktrees to remove; received none.', {
      hint: 'dsh peers --remove NAME…',
    });
  const worktrees = openWorktrees({ dataDir: resolveDataDir(context, values.data) });
  for (const name of names) {
    const path = await worktrees.remove(name, { force: values.force === true }).catch((error: unknown) => {
      throw asCliError(error);
    });
    context.stderr.write(`dsh: removed ${name}'s worktree ${path} and branch dsh/${name} (the session stays)\n`);
  }
  return 0;
}

/** `dsh peers --compare A B [--output-format text|json]`: two existing sessions side by side (nothing is written). */
async function comparePeers(context: CliContext, values: OptionValues, refs: readonly string[]): Promise<number> {
  if (refs.length !== 2) {
    throw new CliError('USAGE', `dsh peers --compare expects two sessions (ids or names); received ${String(refs.length)}.`, {
      hint: 'dsh peers --compare base-1 base-2',
    });
  }
  const format = typeof values['output-format'] === 'string' ? values['output-format'] : 'text';
  if (format !== 'text' && format !== 'json') throw new CliError('USAGE', `--output-format expects text or json; received '${format}'.`);
  const worktrees = openWorktrees({ dataDir: resolveDataDir(context, values.data) });
  const [first, second] = refs as [string, string];
  const sides = await withHost(context, { ...values, model: 'keyless' }, async (host) => {
    const listed = await host.list();
    const side = async (ref: string) => {
      const observed = await host.observe(await host.resolve(ref));
      const name = listed.find((item) => item.id === observed.header.id)?.title ?? observed.header.id;
      // A peer in a worktree dsh made: git knows what it changed, whatever tool changed it.
      return comparedSession(name, observed, await worktrees.changedFiles(observed.cwd));
    };
    return Promise.all([side(first), side(second)]);
  });
  const comparison = compareSessions(...sides);
  context.stdout.write(format === 'json' ? `${JSON.stringify(comparison)}\n` : terminalBody(comparisonText(comparison)));
  return 0;
}

type Plan = {
  baseline: string;
  prompts: string[];
  names: string[];
  cwds: string[];
  worktree: boolean;
  atSeq?: number;
  tools?: string[];
  format: 'text' | 'json';
};

/** The command line checked before anything is opened: every usage error exits 2 and creates nothing. */
function planOf(context: CliContext, values: OptionValues, positionals: readonly string[]): Plan {
  if (values.force === true) throw new CliError('USAGE', '--force only applies to --remove.');
  if (positionals.length !== 1) {
    throw new CliError(
      'USAGE',
      `dsh peers expects one BASELINE (an id or name) besides options; received ${positionals.length === 0 ? 'none' : positionals.map((value) => `'${value}'`).join(' ')}.`,
      {
        hint: 'dsh peers BASELINE --prompt "…" --prompt "…"',
      },
    );
  }
  const prompts = listOf(values.prompt);
  if (prompts.length === 0)
    throw new CliError('USAGE', 'dsh peers expects a --prompt TEXT per peer; received none.', {
      hint: 'dsh peers BASELINE --prompt "try A" --prompt "try B"',
    });
  const blank = prompts.findIndex((prompt) => prompt.trim() === '');
  if (blank >= 0) throw new CliError('USAGE', `Prompt ${String(blank + 1)} is empty: expected text for each peer's first turn.`);
  const names = listOf(values.name);
  if (names.length > prompts.length)
    throw new CliError(
      'USAGE',
      `dsh peers got ${String(names.length)} --name for ${String(prompts.length)} --prompt: expected at most one name per prompt.`,
    );
  const cwds = listOf(values.cwd);
  const worktree = values.worktree === true;
  if (worktree && cwds.length > 0) throw new CliError('USAGE', "--worktree and --cwd both choose the peers' directories: use one of them.");
  if (cwds.length > 0 && cwds.length !== prompts.length) {
    throw new CliError(
      'USAGE',
      `dsh peers got ${String(cwds.length)} --cwd for ${String(prompts.length)} --prompt: expected one --cwd DIR per prompt, in the same order.`,
    );
  }
  const format = typeof values['output-format'] === 'string' ? values['output-format'] : 'text';
  if (format !== 'text' && format !== 'json') throw new CliError('USAGE', `--output-format expects text or json; received '${format}'.`);
  const plan: Plan = {
    baseline: positionals[0] as string,
    prompts,
    names,
    cwds: cwds.map((dir) => resolve(context.cwd, dir)),
    worktree,
    format,
  };
  if (typeof values.at === 'string') plan.atSeq = parseSeq('--at', values.at);
  if (typeof values.tools === 'string') plan.tools = parseTools(values.tools);
  return plan;
}

/** Every peer's name: the given ones (refused `NAME_TAKEN` when a session carries one), then `<baseline>-N`. */
async function peerNames(host: Host, baselineId: string, requested: readonly string[], count: number): Promise<string[]> {
  const sessions = await host.list();
  const taken = new Set(sessions.flatMap((item) => (item.title === undefined ? [] : [item.title])));
  for (const [index, name] of requested.entries()) {
    if (taken.has(name) || requested.indexOf(name) !== index) {
      throw new CliError(
        'NAME_TAKEN',
        `Peer name '${name}' is taken${taken.has(name) ? ' by an existing session' : ' by another --name'}: expected a name no session carries.`,
        {
          hint: 'choose another --name, or leave it out for <baseline>-N',
        },
      );
    }
  }
  const baseName = sessions.find((item) => item.id === baselineId)?.title ?? baselineId;
  const defaults = defaultPeerNames(baseName, new Set([...taken, ...requested]), count - requested.length);
  return [...requested, ...defaults];
}

/** The model the peers run on: `--model`, else the one the baseline recorded (SPEC §21), else keyless. */
async function modelOf(context: CliContext, values: OptionValues, baseline: string): Promise<string> {
  if (typeof values.model === 'string') return values.model;
  const observed = await withHost(context, { ...values, model: 'keyless' }, (host) => host.observe(baseline));
  const config = observed.events.findLast((event) => event.type === 'session/config')?.data as SessionConfig | undefined;
  return config?.model ?? 'keyless';
}

/** Warns about peers that share a directory with each other or with another live session. */
async function warnSharedCwds(
  context: CliContext,
  host: Host,
  peers: readonly { sessionId: string; title: string; cwd: string | undefined }[],
): Promise<void> {
  const ids = peers.map((peer) => peer.sessionId);
  for (const cwd of new Set(peers.flatMap((peer) => (peer.cwd === undefined ? [] : [peer.cwd])))) {
    const here = peers.filter((peer) => peer.cwd === cwd).map((peer) => peer.title);
    if (here.length > 1)
      context.stderr.write(
        `dsh: warning: peers ${here.join(', ')} all work in ${cwd}: they share files — give each its own with --worktree or --cwd DIR\n`,
      );
    const warning = await sharedCwdWarning(host, ids, cwd);
    if (warning !== undefined) context.stderr.write(terminalBody(warning));
  }
}

/**
 * `dsh peers BASELINE --prompt … [--prompt …]`: prints one block (text) or one object (json) per
 * peer in prompt order; exits 0 when every peer's turn completed, else 1.
 */
export async function peersCommand(context: CliContext, values: OptionValues, positionals: readonly string[]): Promise<number> {
  if (values.remove === true) return removePeers(context, values, positionals);
  if (values.compare === true) return comparePeers(context, values, positionals);
  const plan = planOf(context, values, positionals);
  const model = await modelOf(context, values, plan.baseline);
  const appended = new Map<string, SessionEvent[]>();
  const telemetry = (event: SessionEvent, { sessionId }: { sessionId: string }) => {
    const events = appended.get(sessionId) ?? [];
    events.push(event);
    appended.set(sessionId, events);
  };
  const worktrees = openWorktrees({ dataDir: resolveDataDir(context, values.data) });
  const outcome = await withHost(
    context,
    { ...values, model },
    async (host) => {
      const baselineId = await host.resolve(plan.baseline);
      const names = await peerNames(host, baselineId, plan.names, plan.prompts.length);
      let cwds = plan.cwds;
      let made: PreparedPeers | undefined;
      let atSeq = plan.atSeq;
      if (plan.worktree) {
        // One observation gives the cut every peer is forked at and the workspace at it (SPEC §23).
        const observation = await host.observe(baselineId);
        atSeq = selectForkCut(observation.events, plan.atSeq);
        made = await worktrees
          .preparePeers({
            sourceId: baselineId,
            sourceCwd: observation.cwd,
            checkpoint: workspaceAt(observation.events, atSeq),
            peers: names.map((name) => ({ name })),
          })
          .catch((error: unknown) => {
            throw asCliError(error);
          });
        const changes = made.workspace === 'head' ? await uncommittedChanges(observation.cwd) : [];
        context.stderr.write(`${terminalLine(peersWorkspaceLine(made, baselineId, atSeq, changes))}\n`);
        cwds = made.dirs.map((entry) => entry.dir);
      }
      let started;
      try {
        started = await host.peers(baselineId, {
          ...(atSeq === undefined ? {} : { atSeq }),
          peers: plan.prompts.map((prompt, index) => {
            const config: SessionConfig = { model };
            if (cwds[index] !== undefined) config.cwd = cwds[index];
            if (plan.tools !== undefined) config.tools = plan.tools;
            // A peer whose worktree holds the checkpoint at the cut: a call open there is told so (SPEC §23).
            return {
              prompt,
              title: names[index] as string,
              config,
              ...(made?.workspace === 'checkpoint' ? { workspace: 'at-cut' as const } : {}),
            };
          }),
        });
      } catch (error) {
        // No peer exists: the worktrees made for them are empty checkouts, so nothing is lost.
        await made?.undo();
        throw error;
      }
      context.stderr.write(
        `dsh: forked ${String(started.peers.length)} peers of ${terminalLine(baselineId)} at seq ${String(started.cut)}: ${terminalLine(started.peers.map((peer) => peer.title).join(', '))}\n`,
      );
      await warnSharedCwds(context, host, started.peers);
      const reports = await Promise.all(
        started.peers.map(async (peer): Promise<PeerReport> => {
          const result = await host.turnResult(peer.sessionId, peer.inputId);
          const events = appended.get(peer.sessionId) ?? [];
          const files = plan.worktree ? ((await worktrees.changedFiles(peer.cwd)) ?? []) : writtenPaths(events, result.turn);
          return peerReport(peer.title, peer.cwd, result, events, files, model);
        }),
      );
      return { baseline: { session_id: baselineId, cut: started.cut }, peers: reports };
    },
    { telemetry },
  );
  if (plan.format === 'json') {
    context.stdout.write(`${JSON.stringify(outcome)}\n`);
  } else {
    context.stdout.write(`baseline ${terminalLine(outcome.baseline.session_id)} at seq ${String(outcome.baseline.cut)}\n\n`);
    for (const report of outcome.peers) context.stdout.write(`${terminalBody(peerBlock(report))}\n`);
    const first = outcome.peers[0]?.name ?? 'NAME';
    context.stderr.write(`dsh: continue a peer with dsh -p "…" --resume ${first}${storeArguments(context, values)}\n`);
  }
  return outcome.peers.every((peer) => !peer.is_error) ? 0 : 1;
}
