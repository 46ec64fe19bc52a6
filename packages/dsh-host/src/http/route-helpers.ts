/**
 * @module route-helpers
 * Small pieces the route table shares: the `Idempotency-Key` header (its OpenAPI parameter and
 * its check) and dropping zod's `undefined` optionals before a body reaches the host.
 */
import { HostError } from '../host-error.js';
import { idempotencyKeySchema } from './request-schemas.js';

/** The OpenAPI description of the fork route's `Idempotency-Key` header. @internal */
export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  description: 'Repeating a key returns the first child; the same key for a different request is 422 IDEMPOTENCY_MISMATCH',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
} as const;

/** zod's optional fields may hold `undefined`; the host's types (exactOptionalPropertyTypes) may not. @internal */
export function stripUndefined<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/** The validated `Idempotency-Key` header, if sent; `BAD_REQUEST` naming the header otherwise. @internal */
export function idempotencyKeyOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const key = idempotencyKeySchema.safeParse(raw);
  if (key.success) return key.data;
  throw new HostError('BAD_REQUEST', 'Invalid Idempotency-Key header: expected 1-255 visible ASCII characters.', {
    details: { issues: [{ path: ['headers', 'idempotency-key'], message: 'expected 1-255 visible ASCII characters' }] },
  });
}
