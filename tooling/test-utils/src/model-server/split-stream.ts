/**
 * @module model-server/split-stream
 * Cuts a recorded stream into the pieces a model server writes one by one.
 */

/**
 * Cuts a recorded stream's UTF-8 bytes at the given byte offsets, or every `size` bytes when given
 * a number, so pieces may end inside JSON, between `\n` and `\n`, or inside a multi-byte character.
 */
export function splitStream(text: string, cut: number | readonly number[]): Uint8Array[] {
  const bytes = Buffer.from(text, 'utf8');
  const offsets =
    typeof cut === 'number' ? Array.from({ length: Math.max(0, Math.ceil(bytes.length / cut) - 1) }, (_, i) => (i + 1) * cut) : [...cut];
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const offset of [...offsets.filter((o) => o > 0 && o < bytes.length).sort((a, b) => a - b), bytes.length]) {
    if (offset > from) pieces.push(bytes.subarray(from, offset));
    from = offset;
  }
  return pieces;
}
