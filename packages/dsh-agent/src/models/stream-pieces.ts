/**
 * @module models/stream-pieces
 * `streamPieces`: a finished text cut into a few deltas, for models that know their answer at once.
 */
/**
 * Cuts a finished text into at most `count` consecutive pieces at word boundaries (each piece keeps
 * its trailing whitespace), so a model that knows its whole answer at once can still stream it as a
 * few deltas. The pieces joined are exactly `text`; an empty text has no pieces.
 */
export function streamPieces(text: string, count = 4): string[] {
  const words = text.match(/^\s+|\S+\s*/g) ?? [];
  if (words.length === 0) return [];
  const per = Math.ceil(words.length / Math.max(1, count));
  const pieces: string[] = [];
  for (let index = 0; index < words.length; index += per) pieces.push(words.slice(index, index + per).join(''));
  return pieces;
}
