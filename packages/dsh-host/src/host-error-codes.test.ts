import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CODEC_ERROR_CODES, CodecError } from 'dsh-codec';
import { SESSION_ERROR_CODES, SessionError } from 'dsh-session';
import { AGENT_ERROR_CODES, AgentError } from 'dsh-agent';
import { HOST_ERROR_CODES, HostError, httpStatusOf, wireCodeOf, type HostErrorCode } from 'dsh-host';

const lowerTables = { 'dsh-codec': CODEC_ERROR_CODES, 'dsh-session': SESSION_ERROR_CODES, 'dsh-agent': AGENT_ERROR_CODES };

describe('the host error table', () => {
  it.each(Object.entries(lowerTables))('gives every code of %s an HTTP error status', (_name, table) => {
    for (const code of Object.keys(table)) {
      expect(Object.hasOwn(HOST_ERROR_CODES, code), `${code} has no row in HOST_ERROR_CODES`).toBe(true);
      const status = httpStatusOf(code as HostErrorCode);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });

  it('sends storage failures as 503 STORAGE_ERROR and nothing known as INTERNAL', () => {
    expect([httpStatusOf('STORAGE_ERROR'), wireCodeOf('STORAGE_ERROR')]).toEqual([503, 'STORAGE_ERROR']);
    expect([httpStatusOf('WRITE_FAILED'), wireCodeOf('WRITE_FAILED')]).toEqual([503, 'STORAGE_ERROR']);
    expect(httpStatusOf('IDEMPOTENCY_MISMATCH')).toBe(422);
    const sentAsInternal = (Object.keys(HOST_ERROR_CODES) as HostErrorCode[]).filter((code) => wireCodeOf(code) === 'INTERNAL');
    expect(sentAsInternal).toEqual(['INTERNAL']);
  });

  it('wraps every lower package code as a HostError with the same code, keeping the cause', () => {
    const errors = [
      ...Object.keys(CODEC_ERROR_CODES).map((code) => new CodecError(code as keyof typeof CODEC_ERROR_CODES, `codec ${code}`)),
      ...Object.keys(SESSION_ERROR_CODES).map((code) => new SessionError(code as keyof typeof SESSION_ERROR_CODES, `session ${code}`)),
      ...Object.keys(AGENT_ERROR_CODES).map((code) => new AgentError(code as keyof typeof AGENT_ERROR_CODES, `agent ${code}`)),
    ];
    for (const error of errors) {
      const wrapped = HostError.wrap(error);
      expect(wrapped?.code).toBe(error.code);
      expect(wrapped?.message).toBe(error.message);
      expect(wrapped?.cause).toBe(error);
    }
  });

  it('refuses to dress up an unknown failure as a known one', () => {
    expect(HostError.wrap(new Error('boom'))).toBeUndefined();
    expect(HostError.wrap(Object.assign(new Error('coded'), { name: 'SessionError', code: 'NOT_A_CODE' }))).toBeUndefined();
  });
});

describe('the README error tables', () => {
  const readme = (name: string): string => readFileSync(fileURLToPath(new URL(`../../${name}/README.md`, import.meta.url)), 'utf8');
  const tables = { ...lowerTables, 'dsh-host': HOST_ERROR_CODES };

  it.each(Object.entries(tables))('%s README names every code of its table', (name, table) => {
    const text = readme(name);
    const missing = Object.keys(table).filter((code) => !text.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });

  it('dsh-host README gives every code the status of the table', () => {
    const text = readme('dsh-host');
    for (const [code, row] of Object.entries(HOST_ERROR_CODES)) {
      expect(text, code).toContain(`| \`${code}\` | ${row.status}`);
    }
  });
});
