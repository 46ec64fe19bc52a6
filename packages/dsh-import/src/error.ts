/**
 * @module dsh-import/error
 * `ImportError` and its code table alone, for a caller that recognises dsh-import's refusals without
 * loading its readers (dsh-host's `HostError.wrap`: a host that never imports starts without them).
 * The main entry exports the same names.
 */
export { IMPORT_ERROR_CODES, ImportError, type ImportErrorCode } from './import-error.js';
