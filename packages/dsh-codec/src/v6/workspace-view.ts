/**
 * V6's closer view: a forked closer whose text is a V4 forked text followed by the workspace
 * sentence is shown to V4's relationships as that V4 text, so the frozen V4 → V3 mapping
 * (`v4/interrupted-view.ts`) judges it. Any other text is left as it is (and is refused there).
 */
import type { CoreEventDataMap } from '../types.js';
import type { V3Event } from '../v3/types.js';
import { FORKED_NOT_STARTED_TEXT, FORKED_RESULT_PREFIX, forkedStartedText } from '../v4/forked-results.js';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from './workspace-texts.js';

const V4_FORKED_TEXTS: ReadonlySet<string> = new Set([
  FORKED_NOT_STARTED_TEXT,
  ...(['read-only', 'idempotent', 'side-effect', 'unknown'] as const).map((effect) => forkedStartedText(effect)),
]);

const SUFFIX = ` ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`;

/** The V4 forked text a V6 at-cut closer text extends, or `undefined` when `text` is not one. */
export function withoutWorkspaceSentence(text: string): string | undefined {
  if (!text.endsWith(SUFFIX)) return undefined;
  const base = text.slice(0, -SUFFIX.length);
  return V4_FORKED_TEXTS.has(base) ? base : undefined;
}

/** `event` itself, unless it is a forked result whose text carries the workspace sentence: then a copy holding the V4 text. */
export function workspaceViewOf(event: V3Event): V3Event {
  if (event.type !== 'tool/result') return event;
  const data = event.data as CoreEventDataMap['tool/result'];
  if (data.error === undefined || !data.message.id.startsWith(FORKED_RESULT_PREFIX)) return event;
  const content = data.message.content;
  const block = content[0];
  if (content.length !== 1 || block?.type !== 'text') return event;
  const base = withoutWorkspaceSentence(block.text);
  if (base === undefined) return event;
  return { ...event, data: { ...data, message: { ...data.message, content: [{ type: 'text', text: base }] } } };
}
