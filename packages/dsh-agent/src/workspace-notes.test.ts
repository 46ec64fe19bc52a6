/**
 * SPEC §23 "Honest to the model": a fork child's notes and workspace sentences are stored records
 * that reach the model's next request, through history derivation, for every model adapter.
 */
import { describe, expect, it } from 'vitest';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE, workspaceMovedNote, workspaceStaleNote, type SessionNoteData } from 'dsh-codec';
import { createMemoryStore } from 'dsh-session';
import { Agent, createKeylessModel, createScriptedModel, deriveHistory, type ModelMessage, type ModelRequest } from 'dsh-agent';
import { toAnthropicMessages } from './models/anthropic-wire.js';
import { toWireMessages } from './models/openai-wire.js';

const notes: SessionNoteData[] = [workspaceMovedNote('/repo', '/repo-worktrees/b'), workspaceStaleNote(['src/a.ts', 'README.md'])];

/** A parent with one answered turn and a second turn cut while its call is running, forked with notes. */
async function forkedChild(workspace?: 'at-cut') {
  const store = createMemoryStore();
  const parent = await store.create({ id: 'parent' });
  const script = createScriptedModel([{ text: 'Looked.' }]);
  const agent = new Agent({ session: parent, model: script });
  agent.enqueue('look');
  await agent.idle();
  const cut = parent.events.length - 1;
  const child = await store.fork('parent', { atSeq: cut, id: 'child', notes, ...(workspace === undefined ? {} : { workspace }) });
  return { store, child };
}

describe('session/note in the model history', () => {
  it('derives each note as a user text message at its place, after the inherited history', async () => {
    const { child } = await forkedChild();
    const history = deriveHistory(child.events);
    const tail = history.slice(-2);
    const noteSeqs = child.events.filter((event) => event.type === 'session/note').map((event) => event.seq);
    expect(tail).toEqual(
      notes.map((note, index) => ({ id: `note-${String(noteSeqs[index])}`, role: 'user', content: [{ type: 'text', text: note.text }] })),
    );
    expect(history.slice(0, -2).map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('reaches the next model request of the child, before the new input (scripted model)', async () => {
    const { child } = await forkedChild();
    const model = createScriptedModel([{ text: 'Understood.' }]);
    const agent = new Agent({ session: child, model });
    agent.enqueue('go on');
    await agent.idle();
    const texts = (model.requests[0] as ModelRequest).messages.map((message) => textOf(message));
    expect(texts.slice(-3)).toEqual([notes[0]?.text, notes[1]?.text, 'go on']);
  });

  it('is sent by every adapter: Anthropic and OpenAI-compatible wire messages carry the note text, and the keyless model answers', async () => {
    const { child } = await forkedChild();
    const history = deriveHistory(child.events);
    const anthropic = JSON.stringify(toAnthropicMessages(history));
    const openai = JSON.stringify(toWireMessages('system', history));
    for (const note of notes) {
      expect(anthropic).toContain(JSON.stringify(note.text).slice(1, -1));
      expect(openai).toContain(JSON.stringify(note.text).slice(1, -1));
    }
    const agent = new Agent({ session: child, model: createKeylessModel() });
    agent.enqueue('hello');
    await agent.idle();
    expect(child.events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'completed' } } });
  });
});

function textOf(message: ModelMessage): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

// The workspace sentence travels inside the closer's result text, which every adapter already sends.
describe('the workspace sentence in the model history', () => {
  it('is part of the inherited call result the model reads after a fork with the workspace at the cut', async () => {
    const store = createMemoryStore();
    const parent = await store.create({ id: 'p' });
    const gateModel = createScriptedModel([{ toolCalls: [{ name: 'missing', arguments: {} }] }, { text: 'done' }]);
    const agent = new Agent({ session: parent, model: gateModel });
    agent.enqueue('run');
    await agent.idle();
    const call = parent.events.find((event) => event.type === 'assistant/message');
    const child = await store.fork('p', { atSeq: call?.seq ?? 0, id: 'c', workspace: 'at-cut' });
    const results = deriveHistory(child.events).filter((message) => message.role === 'tool');
    expect(results.map((message) => textOf(message))).toEqual([expect.stringContaining(` ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`)]);
    await store.close();
  });
});
