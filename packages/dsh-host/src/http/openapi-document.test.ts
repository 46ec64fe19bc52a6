import { describe, expect, it } from 'vitest';
import { createMemoryStore } from 'dsh-session';
import { createHost, createHttpApp, HOST_ERROR_CODES, openApiDocument, wireCodeOf, type HostErrorCode } from 'dsh-host';

type ErrorSchema = { allOf?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }[] };
type Operation = { operationId: string; responses: Record<string, { content?: Record<string, { schema: ErrorSchema }> }> };

function operations(): { key: string; operation: Operation }[] {
  const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );
}

/** The wire codes an operation documents, by status. */
function documentedCodes(operation: Operation): Map<string, string[]> {
  return new Map(
    Object.entries(operation.responses).map(([status, response]) => [
      status,
      response.content?.['application/json']?.schema.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [],
    ]),
  );
}

/** Codes no route answers with, and why. Anything else must be in some operation's responses. */
const NOT_SENT_BY_ROUTES: Partial<Record<HostErrorCode, string>> = {
  NOT_FOUND: 'answered for a path no route serves',
  UNREPRESENTABLE: 'only a downgrade to an older format version throws it (dsh migrate --to 6); the host never downgrades',
  INVALID_OBSERVATION: 'the host only forks from observations of its own store (a bug otherwise, answered as 500 INTERNAL)',
  INVALID_OPTION: 'programmatic options only (host.query, serveHost)',
  INVALID_SESSION_ID: 'no HTTP body takes a child id; an id in the path that cannot exist is SESSION_NOT_FOUND',
  INVALID_MODEL_SPEC: 'the host is built with its model; HTTP only records config.model',
  INVALID_SCRIPT: 'the host is built with its model',
  INVALID_TITLE:
    'HTTP bodies refuse control characters in titles first (400 BAD_REQUEST naming the field); host.create/fork/rename throw it',
  INVALID_FORK_REQUEST: 'the Idempotency-Key header is checked first (400 BAD_REQUEST naming the header); host.fork throws it',
  PATH_OUTSIDE_CWD: 'tool errors become tool results in the log',
  NO_WORKSPACE: 'tool errors become tool results in the log',
  FILE_NOT_FOUND: 'tool errors become tool results in the log',
  WRONG_FILE_KIND: 'tool errors become tool results in the log',
  HARD_LINKED_FILE: 'tool errors become tool results in the log',
  PATH_TOO_LONG: 'tool errors become tool results in the log',
  PATH_REFUSED: 'tool errors become tool results in the log',
  FILE_TOO_LARGE: "a native fork of a tool's file (dsh-import); no route forks a file",
};

describe('the OpenAPI document', () => {
  it('describes exactly the routes the app serves, each with a unique operationId', async () => {
    const store = createMemoryStore();
    const host = createHost({ store });
    const served = createHttpApp(host)
      .routes.filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = operations();
    expect(documented.map((entry) => entry.key).sort()).toEqual([...new Set(served)].sort());
    expect(served).toHaveLength(new Set(served).size);
    const ids = documented.map((entry) => entry.operation.operationId);
    expect(ids.every((id) => /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    await host.close();
    await store.close();
  });

  it('lists every code of the host table under its status in the operations that can return it', () => {
    const listed = new Map<string, Set<string>>();
    for (const { operation } of operations()) {
      for (const [status, codes] of documentedCodes(operation))
        for (const code of codes) listed.set(code, (listed.get(code) ?? new Set()).add(status));
    }
    for (const [code, row] of Object.entries(HOST_ERROR_CODES) as [HostErrorCode, { status: number }][]) {
      const statuses = listed.get(wireCodeOf(code));
      if (code in NOT_SENT_BY_ROUTES) continue;
      expect(statuses, `${code} is in no operation's responses`).toBeDefined();
      expect([...(statuses ?? [])], code).toContain(String(row.status));
    }
    for (const code of Object.keys(NOT_SENT_BY_ROUTES)) expect(HOST_ERROR_CODES).toHaveProperty(code);
  });

  it('documents the guard (401, 403, 415), every 409 of the table, 422 and 503 where they apply', () => {
    const byKey = new Map(operations().map((entry) => [entry.key, documentedCodes(entry.operation)]));
    const fork = byKey.get('POST /api/sessions/{id}/fork')!;
    expect(fork.get('401')).toEqual(['UNAUTHORIZED']);
    expect(fork.get('403')).toEqual(['CROSS_ORIGIN', 'HOST_NOT_ALLOWED']);
    expect(fork.get('415')).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    expect(fork.get('422')).toEqual(expect.arrayContaining(['INVALID_CUT', 'IDEMPOTENCY_MISMATCH']));
    expect([...fork.get('503')!].sort()).toEqual(['SERVER_BUSY', 'STORAGE_ERROR', 'STORE_CLOSED', 'TOO_MANY_SESSIONS']);
    expect(fork.get('408')).toEqual(['REQUEST_TIMEOUT']);
    const conflicts = Object.entries(HOST_ERROR_CODES)
      .filter(([, row]) => row.status === 409)
      .map(([code]) => code)
      .sort();
    const documented409 = new Set([...byKey.values()].flatMap((codes) => codes.get('409') ?? []));
    expect([...documented409].sort()).toEqual(conflicts);
    expect(byKey.get('GET /api/sessions')!.has('415')).toBe(false);
  });
});
