import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { timeMs } from '../harness/measure-rounds.js';
import { langGraphPlan, type GraphMessage, type GraphPlan } from './peer-histories.js';
import type { PeerDriver, PeerInput } from './peer-driver.js';

type RunConfig = { configurable: { thread_id: string; checkpoint_id?: string; checkpoint_ns?: string } };
type LcMessage = { id?: string; tool_calls?: unknown[]; getType(): string };
type GraphState = { messages: LcMessage[] };
type Snapshot = { values: GraphState; next: string[]; config: RunConfig };
type Node = (state: GraphState) => Promise<{ messages: unknown[] }>;

interface CompiledGraph {
  invoke(input: unknown, config: RunConfig & { recursionLimit?: number }): Promise<unknown>;
  updateState(config: RunConfig, values: unknown, asNode?: string): Promise<RunConfig>;
  getState(config: RunConfig): Promise<Snapshot>;
  getStateHistory(config: RunConfig): AsyncIterable<Snapshot>;
}

interface GraphBuilder {
  addNode(name: string, node: Node): GraphBuilder;
  addEdge(from: string, to: string): GraphBuilder;
  addConditionalEdges(from: string, route: (state: GraphState) => string): GraphBuilder;
  compile(options: { checkpointer: unknown }): CompiledGraph;
}

interface SqliteSaverInstance {
  db: {
    prepare(sql: string): { get(...args: unknown[]): unknown };
    pragma(source: string, options?: { simple?: boolean }): unknown;
    close(): void;
  };
  setup(): void;
}

/** The parts of `@langchain/langgraph`, `@langchain/core/messages` and the SQLite checkpointer this bench calls. */
export interface LangGraphModules {
  langgraph: { StateGraph: new (annotation: unknown) => GraphBuilder; MessagesAnnotation: unknown; START: string; END: string };
  messages: {
    HumanMessage: new (fields: Record<string, unknown>) => LcMessage;
    AIMessage: new (fields: Record<string, unknown>) => LcMessage;
    ToolMessage: new (fields: Record<string, unknown>) => LcMessage;
  };
  sqlite: { SqliteSaver: { fromConnString(path: string): SqliteSaverInstance } };
}

/**
 * LangGraph JS with its SQLite checkpointer: a messages graph (`agent` → `tools` → `agent`) whose
 * thread holds the same conversation. The fork is LangGraph's time travel: `updateState` on the
 * checkpoint after the `agent` node declared the cut step's calls, writing the step's tool messages
 * (LangGraph has no synthetic results of its own, so the bench writes them, as a user would).
 */
export function langGraphPeer(modules: LangGraphModules): PeerDriver {
  const { StateGraph, MessagesAnnotation, START, END } = modules.langgraph;
  const { HumanMessage, AIMessage, ToolMessage } = modules.messages;
  let input: PeerInput | undefined;
  let saver: SqliteSaverInstance | undefined;
  let graph: CompiledGraph | undefined;
  let plan: GraphPlan | undefined;
  let cutConfig: RunConfig | undefined;
  let forks = 0;
  const thread: RunConfig = { configurable: { thread_id: 'parent' } };

  const toLc = (message: GraphMessage): LcMessage => {
    switch (message.kind) {
      case 'human':
        return new HumanMessage({ id: message.id, content: message.text });
      case 'ai':
        return new AIMessage({
          id: message.id,
          content: message.text,
          tool_calls: message.toolCalls.map((call) => ({ ...call, type: 'tool_call' })),
        });
      case 'tool':
        return new ToolMessage({
          id: message.id,
          content: message.text,
          tool_call_id: message.callId,
          status: message.isError ? 'error' : 'success',
        });
    }
  };
  const lastHasCalls = (state: GraphState): boolean => (state.messages.at(-1)?.tool_calls?.length ?? 0) > 0;

  const forkOnce = async (): Promise<{ ms: number; bytes: number; config: RunConfig }> => {
    if (!graph || !plan || !cutConfig || !saver) throw new Error('langgraph: prepare() first');
    const step = plan.turn.steps[plan.cutStep];
    const n = ++forks;
    const results = (step?.ai.toolCalls ?? []).map(
      (call) =>
        new ToolMessage({
          id: `fork-${String(n)}-${call.id}`,
          tool_call_id: call.id,
          content: 'This branch was forked before the call ran here; its outcome is unknown to this branch.',
          status: 'error',
        }),
    );
    const activeGraph = graph;
    const from = cutConfig;
    let config: RunConfig | undefined;
    const ms = await timeMs(async () => {
      config = await activeGraph.updateState(from, { messages: results }, 'tools');
    });
    if (!config) throw new Error('langgraph: updateState returned no config');
    const id = config.configurable.checkpoint_id;
    const row = saver.db
      .prepare(
        `SELECT (SELECT length(checkpoint) + length(metadata) FROM checkpoints WHERE thread_id = ? AND checkpoint_id = ?)
            + (SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = ? AND checkpoint_id = ?) AS bytes`,
      )
      .get('parent', id, 'parent', id) as { bytes: number | null } | undefined;
    return { ms, bytes: row?.bytes ?? 0, config };
  };

  return {
    name: 'LangGraph JS (SQLite checkpointer)',
    api: '`graph.updateState(checkpointConfig, values, "tools")` (time travel), `SqliteSaver`',
    async prepare(given) {
      input = given;
      await mkdir(given.dir, { recursive: true });
      const currentPlan = langGraphPlan(given.events, given.cut);
      plan = currentPlan;
      const path = join(given.dir, 'checkpoints.sqlite');
      const currentSaver = modules.sqlite.SqliteSaver.fromConnString(path);
      currentSaver.setup();
      saver = currentSaver;
      // A ReAct-shaped graph whose nodes replay the cut turn's recorded steps instead of calling a
      // model and tools; once the script is exhausted the agent adds nothing and the run ends.
      let agentStep = 0;
      let toolStep = 0;
      const steps = currentPlan.turn.steps;
      const compiled = new StateGraph(MessagesAnnotation)
        .addNode('agent', (): Promise<{ messages: unknown[] }> => {
          const step = steps[agentStep++];
          return Promise.resolve({ messages: step ? [toLc(step.ai)] : [] });
        })
        .addNode('tools', (): Promise<{ messages: unknown[] }> => {
          const step = steps[toolStep++];
          return Promise.resolve({ messages: step ? step.tools.map(toLc) : [] });
        })
        .addEdge(START, 'agent')
        .addConditionalEdges('agent', (state) => (lastHasCalls(state) ? 'tools' : END))
        .addEdge('tools', 'agent')
        .compile({ checkpointer: currentSaver });
      graph = compiled;
      // The history before the cut's turn as one checkpoint (a step-by-step run would store the whole
      // message list again at every super-step: quadratic in history length), then the cut's turn for
      // real, one checkpoint per super-step, then the rest of the history as one checkpoint.
      if (currentPlan.before.length > 0) await compiled.updateState(thread, { messages: currentPlan.before.map(toLc) }, 'agent');
      await compiled.invoke({ messages: [toLc(currentPlan.turn.human)] }, { ...thread, recursionLimit: 200 });
      const cutAi = steps[currentPlan.cutStep]?.ai.id;
      for await (const snapshot of compiled.getStateHistory(thread)) {
        if (snapshot.next.includes('tools') && snapshot.values.messages.at(-1)?.id === cutAi) {
          cutConfig = snapshot.config;
          break;
        }
      }
      if (!cutConfig) throw new Error('langgraph: no checkpoint after the agent node of the cut step');
      if (currentPlan.after.length > 0) await compiled.updateState(thread, { messages: currentPlan.after.map(toLc) }, 'agent');
      const sizes = await Promise.all(['', '-wal'].map(async (suffix) => (await stat(`${path}${suffix}`).catch(() => ({ size: 0 }))).size));
      return { parentBytes: sizes.reduce((sum, size) => sum + size, 0) };
    },
    async fork() {
      const { ms, bytes } = await forkOnce();
      return { ms, bytes };
    },
    async observe() {
      const { config } = await forkOnce();
      if (!graph || !plan || !saver) throw new Error('langgraph: prepare() first');
      const state = await graph.getState(config);
      const tail = state.values.messages.slice(-3).map((message) => {
        const calls = message.tool_calls?.length ?? 0;
        return calls > 0 ? `${message.getType()} (${String(calls)} tool_calls)` : message.getType();
      });
      const synchronous = saver.db.pragma('synchronous', { simple: true });
      const journal = saver.db.pragma('journal_mode', { simple: true });
      return {
        cutAt: 'the checkpoint after the `agent` node of the cut step (super-step boundary: before any of its calls ran)',
        childEnds: `… ${tail.join(', ')}, next: ${state.next.join(', ') || 'END'} — the tool messages were written by the bench through \`updateState\`; without them, resuming re-runs the \`tools\` node (every call of the step). SQLite journal_mode=${String(journal)}, synchronous=${synchronous === 1 ? 'NORMAL (a WAL commit is not fsynced)' : String(synchronous)}`,
        records: `${String(state.values.messages.length)} of ${String(plan.messages)} messages, as one new checkpoint in the same thread`,
      };
    },
    async dispose() {
      saver?.db.close();
      if (input) await rm(input.dir, { recursive: true, force: true });
    },
  };
}
