/**
 * @module `PostgresContext`: what every operation of the PostgreSQL backend is given (its settings, batcher and renewer).
 */
import type { AppendBatcher } from './write/append-batcher.js';
import type { LeaseRenewer } from './lease/lease-renewer.js';
import type { PostgresSettings } from './postgres-settings.js';

/** Everything an operation of the PostgreSQL backend needs. @internal */
export type PostgresContext = PostgresSettings & { batcher: AppendBatcher; renewer: LeaseRenewer };
