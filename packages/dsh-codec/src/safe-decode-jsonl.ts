/**
 * @module safe-decode-jsonl
 * `safeDecodeJsonl`: `decodeJsonl` returning its `CodecError` instead of throwing it.
 */
import { CodecError } from './codec-error.js';
import { decodeJsonl, type DecodedLog } from './decode-jsonl.js';

/** `decodeJsonl` that returns its `CodecError` instead of throwing it. */
export function safeDecodeJsonl(
  text: string,
  options: { sessionId?: string } = {},
): { ok: true; value: DecodedLog } | { ok: false; error: CodecError } {
  try {
    return { ok: true, value: decodeJsonl(text, options) };
  } catch (error) {
    if (CodecError.is(error)) return { ok: false, error };
    throw error;
  }
}
