/** @module `nodeResponseOf`: the Node response behind a hono request served by hono's Node server. */
import { OutgoingMessage } from 'node:http';
import type { Context } from 'hono';

/** The Node response behind the request when hono's Node server serves it (`env.outgoing`), else undefined. @internal */
export function nodeResponseOf(context: Context): OutgoingMessage | undefined {
  const env: unknown = context.env;
  if (typeof env !== 'object' || env === null || !('outgoing' in env)) return undefined;
  return env.outgoing instanceof OutgoingMessage ? env.outgoing : undefined;
}
