/**
 * @module `call(host, method, path, body?, headers?)`: one in-process HTTP request through `host.fetch`
 * (a string body is sent as it is, anything else as JSON), failing the test when the answer's status or
 * error code is not documented for that operation in the OpenAPI document (a path with no operation must
 * answer 404 NOT_FOUND).
 */
import { expect } from 'vitest';
import { openApiDocument, type Host } from 'dsh-host';

type DocumentedResponse = {
  content?: Record<string, { schema: { allOf?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }[] } }>;
};
const documentedPaths = openApiDocument().paths as Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>;

/** Every answer a test provokes must be documented: its status under its operation, its code under that status. */
function expectDocumented(method: string, path: string, status: number, code: string | undefined): void {
  const pathname = new URL(path, 'http://dsh.test').pathname;
  const match = Object.entries(documentedPaths).find(([template]) =>
    new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(pathname),
  );
  const operation = match?.[1][method.toLowerCase()];
  if (operation === undefined) {
    expect([status, code], `${method} ${pathname} has no operation`).toEqual([404, 'NOT_FOUND']);
    return;
  }
  const response = operation.responses[String(status)];
  expect(response, `${method} ${pathname} answered ${String(status)}, which its operation does not document`).toBeDefined();
  if (status >= 400) {
    const codes = response?.content?.['application/json']?.schema.allOf?.[1]?.properties?.error?.properties?.code?.enum;
    expect(codes, `${method} ${pathname} answered ${String(status)} ${code ?? ''}`).toContain(code);
  }
}

/** The answer's status and parsed JSON body. */
export async function call(host: Host, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await host.fetch(new Request(`http://dsh.test${path}`, init));
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked by assertions, not types
  const parsed = text === '' ? undefined : (JSON.parse(text) as Record<string, any>);
  expectDocumented(method, path, response.status, parsed?.error?.code as string | undefined);
  return { status: response.status, body: parsed };
}
