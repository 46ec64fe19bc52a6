/**
 * @module model-server/model-server-types
 * The shapes the fake model server records and answers with.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ModelApi } from './scripted-reply.js';

/** What a request was, by its method and path: a model API, or a side endpoint. */
export type RequestApi = ModelApi | 'count-tokens' | 'models' | 'other';

/** One request the server received: its API, method, path (with query), headers, the parsed JSON body (or the text) and the raw text. */
export type ModelServerRequest = {
  api: RequestApi;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  raw: string;
};

/**
 * What a handler answers. `chunks` are written one by one, each in its own write, so chunk
 * boundaries reach the client where the test put them (inside JSON, between `\n` and `\n`…); a
 * promise among them holds the stream there until it settles (a slow model the test releases);
 * then the response ends, or `after: 'hang'` keeps it open, or `after: 'reset'` destroys the socket.
 */
export type ModelServerReply =
  | {
      status?: number;
      headers?: Record<string, string>;
      json?: unknown;
      text?: string;
      chunks?: readonly (string | Uint8Array | Promise<unknown>)[];
      after?: 'end' | 'hang' | 'reset';
    }
  | 'hang';

/** Answers one model request; `index` counts the requests handed to it so far. May be async. */
export type ModelHandler = (request: ModelServerRequest, index: number) => ModelServerReply | Promise<ModelServerReply>;
