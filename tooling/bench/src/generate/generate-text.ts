import type { Random } from './create-random.js';

const WORDS = (
  'the a to of and in is it for that this with on as be are we can should file test function ' +
  'session event fork store append error value type return call tool result model turn step ' +
  'check update config path line read write flush durable log seq parent child cut open close ' +
  'repair replay index cache buffer stream batch commit header version migrate schema field ' +
  'now then first next last before after because when if not only also still already here'
).split(' ');

const IDENTIFIERS = [
  'session',
  'events',
  'store',
  'cut',
  'header',
  'writer',
  'batch',
  'offset',
  'result',
  'options',
  'parent',
  'child',
  'seq',
  'line',
  'buffer',
  'handle',
  'lease',
  'config',
  'title',
  'input',
];

/** Prose of roughly `length` characters: sentences of plain words. */
export function writeProse(random: Random, length: number): string {
  const parts: string[] = [];
  let size = 0;
  let sentence = 0;
  while (size < length) {
    const word = random.pick(WORDS);
    const first = sentence === 0;
    const text = first ? word.charAt(0).toUpperCase() + word.slice(1) : word;
    sentence += 1;
    const end = sentence > 6 && random.next() < 0.15;
    if (end) sentence = 0;
    parts.push(end ? `${text}.` : text);
    size += text.length + 1;
  }
  return parts.join(' ');
}

/** Source-like text of roughly `length` characters, as a file-reading tool returns. */
export function writeCode(random: Random, length: number): string {
  const lines: string[] = [];
  let size = 0;
  let depth = 0;
  while (size < length) {
    const name = random.pick(IDENTIFIERS);
    const other = random.pick(IDENTIFIERS);
    const indent = '  '.repeat(depth);
    let line: string;
    switch (random.int(0, 5)) {
      case 0:
        line = `${indent}export function ${name}Of(${other}: number): string {`;
        depth = Math.min(depth + 1, 4);
        break;
      case 1:
        line = `${indent}const ${name} = await ${other}.read(${random.int(0, 4096)});`;
        break;
      case 2:
        line = `${indent}if (${name}.length > ${other}.length) return ${name};`;
        break;
      case 3:
        line = `${indent}// ${writeProse(random, random.int(20, 60))}`;
        break;
      case 4:
        line = depth > 0 ? `${'  '.repeat(depth - 1)}}` : `${indent}${name}.push(${other});`;
        depth = Math.max(depth - 1, 0);
        break;
      default:
        line = `${indent}${name}[${random.int(0, 99)}] = ${other}.slice(${random.int(0, 9)});`;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** A lowercase base-36 token of `length` characters. */
export function token(random: Random, length: number): string {
  let text = '';
  while (text.length < length) text += Math.floor(random.next() * 36).toString(36);
  return text;
}

/**
 * Fast text for large logs: slices of two pools (prose, code) written once per generator, cut at
 * random offsets. Keeps 100k-event logs to about a second to generate while the text stays varied.
 */
export interface TextSource {
  prose(length: number): string;
  code(length: number): string;
}

const POOL_SIZE = 128 * 1024;

/** A `TextSource` whose pools and offsets come from `random`. */
export function createTextSource(random: Random): TextSource {
  const prosePool = writeProse(random, POOL_SIZE);
  const codePool = writeCode(random, POOL_SIZE);
  const slice = (pool: string, length: number): string => {
    const size = Math.min(Math.max(1, Math.round(length)), pool.length);
    const start = random.int(0, pool.length - size);
    return pool.slice(start, start + size).trim() || pool.slice(0, size);
  };
  return {
    prose: (length) => slice(prosePool, length),
    code: (length) => slice(codePool, length),
  };
}
