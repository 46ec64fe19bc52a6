/**
 * The WebAssembly scanner of a Claude Code file (AssemblyScript; `pnpm --filter dsh-import run
 * build:wasm` compiles it into `src/native/claude-code-bytes/wasm/claude-code-rows-wasm.ts`): every line of the
 * bytes at 0 checked to the JSON grammar and read into a row of the line table's layout
 * (`claude-code-line-table.ts`: the same slots, the same meaning), its strings interned by their
 * decoded bytes. A line it does not read itself is *declined* — left as a row holding only its
 * place, listed for the caller to parse: anything not one compact JSON object, an escaped key, a
 * string with an escaped lone surrogate, an id that is not a string, nesting deeper than 512.
 * What it accepts, `JSON.parse` accepts; the property tests hold its rows equal to the parsed ones.
 * @module
 */

// The line table's layout, generated from scripts/row-layout.mjs (claude-code-line-table.ts reads the same table).
import {
  TYPE,
  UUID,
  PARENT_UUID,
  LOGICAL_PARENT_UUID,
  IS_SIDECHAIN,
  SESSION_ID,
  CWD,
  SUBTYPE,
  IS_META,
  IS_COMPACT_SUMMARY,
  IS_API_ERROR_MESSAGE,
  MESSAGE,
  MESSAGE_ID,
  MODEL,
  CONTENT,
  BLOCKS_START,
  BLOCKS_END,
  LINE_INDEX,
  LINE_START,
  LINE_END,
  ROW,
  BLOCK_TYPE,
  BLOCK_TEXT,
  BLOCK_ID,
  BLOCK_NAME,
  BLOCK_TOOL_USE_ID,
  BLOCK_THINKING,
  BLOCK_DATA,
  BLOCK,
  CONTENT_BLOCKS,
  MARK_NONE,
  MARK_PLAIN,
  MARK_INTERRUPTED,
} from './row-layout';

const NEWLINE = 10;
const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const MAX_DEPTH = 512;
/** Returned for a declined line (and by every step that finds what it does not read). */
const NO = -1;

/** `scan`'s results: done, or a region was too small (the caller makes them larger and scans again). */
const DONE = 0;
const FULL = 1;

// Where each region starts (bytes) and how many entries it holds, set by `configure`.
let inputLength = 0;
let stackAt = 0;
let rowsAt = 0;
let rowsCap = 0;
let blocksAt = 0;
let blocksCap = 0;
let infoAt = 0;
let keysCap = 0;
let slotsAt = 0;
let slotMask = 0;
let watchedAt = 0;
let watchedCap = 0;
let declinedAt = 0;
let arenaAt = 0;
let arenaCap = 0;
let extraAt = 0;

// What the scan has written.
let rowCount = 0;
let blockCount = 0;
let keyCount = 0;
let watchedCount = 0;
let declinedCount = 0;
let arenaLength = 0;
let extraLength = 0;
let full = false;
/** The longest text keyed. */
let maxLength = 0;

/** Whether the last string token `stringEnd` read held a backslash. */
let escaped = false;
/** The row being read: its base address and the first block it owns. */
let rowBase = 0;
let rowBlocks = 0;

/** Sets the regions (byte addresses; the caller sized them). */
export function configure(
  length: i32,
  stack: i32,
  rows: i32,
  rowCapacity: i32,
  blocks: i32,
  blockCapacity: i32,
  info: i32,
  keyCapacity: i32,
  slots: i32,
  slotCapacity: i32,
  watched: i32,
  watchedCapacity: i32,
  declined: i32,
  arena: i32,
  arenaCapacity: i32,
  extra: i32,
): void {
  inputLength = length;
  stackAt = stack;
  rowsAt = rows;
  rowsCap = rowCapacity;
  blocksAt = blocks;
  blocksCap = blockCapacity;
  infoAt = info;
  keysCap = keyCapacity;
  slotsAt = slots;
  slotMask = slotCapacity - 1;
  watchedAt = watched;
  watchedCap = watchedCapacity;
  declinedAt = declined;
  arenaAt = arena;
  arenaCap = arenaCapacity;
  extraAt = extra;
  rowCount = 0;
  blockCount = 0;
  keyCount = 0;
  watchedCount = 0;
  declinedCount = 0;
  arenaLength = 0;
  extraLength = 0;
  full = false;
  maxLength = 0;
  scanPos = 0;
  scanIndex = 0;
  recentAt = stack + MAX_DEPTH;
  for (let i = 0; i < RECENT; i++) store<i32>(recentAt + i * 12, -1, 4);
}

export function rows(): i32 {
  return rowCount;
}
export function blocks(): i32 {
  return blockCount;
}
export function keys(): i32 {
  return keyCount;
}
export function watched(): i32 {
  return watchedCount;
}
export function longest(): i32 {
  return maxLength;
}
export function declined(): i32 {
  return declinedCount;
}
export function extraEnd(): i32 {
  return extraAt + extraLength;
}

/** Index of the first newline at or after `at` (or the input's length). */
function newlineFrom(at: i32): i32 {
  const newline = i8x16.splat(<i8>NEWLINE);
  let i = at;
  const end = inputLength;
  for (; i + 16 <= end; i += 16) {
    const bits = i8x16.bitmask(i8x16.eq(v128.load(i), newline));
    if (bits != 0) return i + ctz(bits);
  }
  for (; i < end; i++) if (load<u8>(i) == NEWLINE) return i;
  return end;
}

// ---------------------------------------------------------------- strings

function isHex(c: u32): bool {
  return c - 48 < 10 || (c | 32) - 97 < 6;
}

function hex4(at: i32): i32 {
  let value = 0;
  for (let i = 0; i < 4; i++) {
    const c = <u32>load<u8>(at + i);
    if (!isHex(c)) return NO;
    value = (value << 4) | (<i32>(c - 48 < 10 ? c - 48 : (c | 32) - 87));
  }
  return value;
}

/** The index after the string token opening at `at` (a quote), checked to the grammar; NO for one that is not. */
function stringEnd(at: i32): i32 {
  const quote = i8x16.splat(<i8>QUOTE);
  const backslash = i8x16.splat(<i8>BACKSLASH);
  const control = i8x16.splat(<i8>0x20);
  const end = inputLength;
  let i = at + 1;
  let sawEscape = false;
  for (;;) {
    // The padding after the input (zeros) stops the loads: a zero is a control character.
    const v = v128.load(i);
    const bits = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.lt_u(v, control)));
    if (bits == 0) {
      i += 16;
      continue;
    }
    i += ctz(bits);
    if (i >= end) return NO;
    const c = load<u8>(i);
    if (c == QUOTE) {
      escaped = sawEscape;
      return i + 1;
    }
    if (c != BACKSLASH) return NO;
    sawEscape = true;
    const e = load<u8>(i + 1);
    if (e == 117) {
      if (hex4(i + 2) < 0) return NO;
      i += 6;
    } else if (e == QUOTE || e == BACKSLASH || e == 47 || e == 98 || e == 102 || e == 110 || e == 114 || e == 116) i += 2;
    else return NO;
  }
  return NO;
}

function hashOf(at: i32, length: i32): u32 {
  // The first and last eight bytes (ids differ in their tail) and the length; every candidate is compared whole.
  let hash: u64 = <u64>length * 0x9e3779b97f4a7c15;
  if (length >= 8) {
    hash = (hash ^ load<u64>(at)) * 0xff51afd7ed558ccd;
    hash = (hash ^ load<u64>(at + length - 8)) * 0xc4ceb9fe1a85ec53;
  } else for (let i = 0; i < length; i++) hash = (hash ^ load<u8>(at + i)) * 0x100000001b3;
  return <u32>(hash ^ (hash >> 32));
}

function sameBytes(a: i32, b: i32, length: i32): bool {
  let i = 0;
  for (; i + 8 <= length; i += 8) if (load<u64>(a + i) != load<u64>(b + i)) return false;
  for (; i < length; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

/**
 * The key of the text `[at, at + length)`; a new text gets the next key, its bytes where they are
 * (`insert`), or -1 without `insert`. -2 when the key region is full.
 */
function lookup(at: i32, length: i32, insert: bool): i32 {
  const hash = hashOf(at, length);
  for (let slot = hash & slotMask; ; slot = (slot + 1) & slotMask) {
    // A slot is [key + 1, hash]: a probe compares the hash before it reads the key's text.
    const entry = slotsAt + (slot << 3);
    const key = load<i32>(entry) - 1;
    if (key < 0) {
      if (!insert) return -1;
      if (keyCount == keysCap) {
        full = true;
        return -2;
      }
      const info = infoAt + (keyCount << 4);
      store<u32>(info, hash);
      store<i32>(info, at, 4);
      store<i32>(info, length, 8);
      store<i32>(entry, keyCount + 1);
      store<u32>(entry, hash, 4);
      if (length > maxLength) maxLength = length;
      return keyCount++;
    }
    if (load<u32>(entry, 4) != hash) continue;
    const info = infoAt + (key << 4);
    if (load<i32>(info, 8) == length && sameBytes(load<i32>(info, 4), at, length)) return key;
  }
  return -1;
}

/** Writes the UTF-8 of code point `c` at `to`; returns the next address. */
function utf8(to: i32, c: i32): i32 {
  if (c < 0x80) {
    store<u8>(to, c);
    return to + 1;
  }
  if (c < 0x800) {
    store<u8>(to, 0xc0 | (c >> 6));
    store<u8>(to + 1, 0x80 | (c & 63));
    return to + 2;
  }
  if (c < 0x10000) {
    store<u8>(to, 0xe0 | (c >> 12));
    store<u8>(to + 1, 0x80 | ((c >> 6) & 63));
    store<u8>(to + 2, 0x80 | (c & 63));
    return to + 3;
  }
  store<u8>(to, 0xf0 | (c >> 18));
  store<u8>(to + 1, 0x80 | ((c >> 12) & 63));
  store<u8>(to + 2, 0x80 | ((c >> 6) & 63));
  store<u8>(to + 3, 0x80 | (c & 63));
  return to + 4;
}

/** The key of the string token `[at, after)` (just read by `stringEnd`): NO for a lone surrogate, -2 when full. */
function tokenKey(at: i32, after: i32): i32 {
  if (!escaped) return lookup(at + 1, after - at - 2, true);
  // Decoded into the arena; a token decodes to at most its own length.
  if (arenaLength + (after - at) > arenaCap) {
    full = true;
    return -2;
  }
  const start = arenaAt + arenaLength;
  let to = start;
  for (let i = at + 1; i < after - 1;) {
    const c = load<u8>(i);
    if (c != BACKSLASH) {
      store<u8>(to++, c);
      i++;
      continue;
    }
    const e = load<u8>(i + 1);
    i += 2;
    if (e == 117) {
      let code = hex4(i);
      i += 4;
      if (code >= 0xdc00 && code < 0xe000) return NO;
      if (code >= 0xd800 && code < 0xdc00) {
        if (load<u8>(i) != BACKSLASH || load<u8>(i + 1) != 117) return NO;
        const low = hex4(i + 2);
        if (low < 0xdc00 || low >= 0xe000) return NO;
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i += 6;
      }
      to = utf8(to, code);
    } else store<u8>(to++, e == 98 ? 8 : e == 102 ? 12 : e == 110 ? 10 : e == 114 ? 13 : e == 116 ? 9 : e);
  }
  const before = keyCount;
  const key = lookup(start, to - start, true);
  // A new text keeps its decoded bytes in the arena; a known one leaves them to be written over.
  if (key == before) arenaLength = to - arenaAt;
  return key;
}

/** The key of the `length` bytes the caller wrote at `extraEnd()`; `insert`: keep them (a new key), else -1 for a text the table lacks. */
export function keyOfExtra(length: i32, insert: i32): i32 {
  const before = keyCount;
  const key = lookup(extraAt + extraLength, length, insert != 0);
  if (key == before && insert != 0) extraLength += length;
  return key;
}

/** A new key that no text finds (the caller keeps its string: one with a lone surrogate). */
export function reserveKey(): i32 {
  if (keyCount == keysCap) return -2;
  const info = infoAt + (keyCount << 4);
  store<u32>(info, 0);
  store<i32>(info, 0, 4);
  store<i32>(info, -1, 8);
  return keyCount++;
}

// ---------------------------------------------------------------- values

function watchKey(after: i32): void {
  // `"sessionId"` ends the key token ending at `after`.
  const at = after - 11;
  if (at < 0 || load<u8>(after - 2) != 100) return;
  if (load<u64>(at) != 0x6e6f697373657322 || load<u16>(at + 8) != 0x6449 || load<u8>(at + 10) != 0x22) return;
  if (watchedCount == watchedCap) {
    full = true;
    return;
  }
  store<i32>(watchedAt + (watchedCount << 2), at);
  watchedCount++;
}

/** A key token and its colon at `at`: where its value starts, or NO. */
function keyValue(at: i32): i32 {
  if (load<u8>(at) != QUOTE) return NO;
  const after = stringEnd(at);
  if (after < 0 || load<u8>(after) != COLON) return NO;
  watchKey(after);
  return after + 1;
}

function digits(from: i32): i32 {
  let j = from;
  while (<u32>load<u8>(j) - 48 < 10) j++;
  return j == from ? NO : j;
}

function number(at: i32): i32 {
  let i = at;
  if (load<u8>(i) == 45) i++;
  if (load<u8>(i) == 48) i++;
  else {
    i = digits(i);
    if (i < 0) return NO;
  }
  if (load<u8>(i) == 46) {
    i = digits(i + 1);
    if (i < 0) return NO;
  }
  const e = load<u8>(i);
  if (e == 101 || e == 69) {
    i++;
    const sign = load<u8>(i);
    if (sign == 43 || sign == 45) i++;
    i = digits(i);
  }
  return i;
}

/** A string, literal or number at `at`: the index after it, or NO. */
function scalar(at: i32): i32 {
  const c = load<u8>(at);
  if (c == QUOTE) return stringEnd(at);
  if (c == 116) return load<u32>(at) == 0x65757274 ? at + 4 : NO;
  if (c == 102) return load<u32>(at + 1) == 0x65736c61 ? at + 5 : NO;
  if (c == 110) return load<u32>(at) == 0x6c6c756e ? at + 4 : NO;
  return number(at);
}

/** Skips any JSON value at `at`, checked to the grammar: the index after it, or NO. */
function skip(at: i32): i32 {
  const stack = stackAt;
  let depth = 0;
  let i = at;
  for (;;) {
    const c = load<u8>(i);
    if (c == QUOTE) i = stringEnd(i);
    else if (c == OPEN_OBJECT) {
      i++;
      if (load<u8>(i) != CLOSE_OBJECT) {
        if (depth == MAX_DEPTH) return NO;
        store<u8>(stack + depth++, 1);
        i = keyValue(i);
        if (i < 0) return NO;
        continue;
      }
      i++;
    } else if (c == OPEN_ARRAY) {
      i++;
      if (load<u8>(i) != CLOSE_ARRAY) {
        if (depth == MAX_DEPTH) return NO;
        store<u8>(stack + depth++, 0);
        continue;
      }
      i++;
    } else i = scalar(i);
    if (i < 0) return NO;
    for (;;) {
      if (depth == 0) return i;
      const next = load<u8>(i);
      const inObject = load<u8>(stack + depth - 1) == 1;
      if (next == COMMA) {
        i = inObject ? keyValue(i + 1) : i + 1;
        if (i < 0) return NO;
        break;
      }
      if (next != (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return NO;
      depth--;
      i++;
    }
  }
  return NO;
}

function markerByte(i: i32): u32 {
  // `[Request interrupted by user` as four little-endian words.
  const word: u64 = i < 8 ? 0x747365757165525b : i < 16 ? 0x75727265746e6920 : i < 24 ? 0x2079622064657470 : 0x72657375;
  return <u32>((word >> ((<u64>(i & 7)) << 3)) & 0xff);
}

/** The interruption mark of the string token `[at, after)` (checked by `stringEnd`): whether its text starts with the marker. */
function markOf(at: i32, after: i32): i32 {
  let i = at + 1;
  const end = after - 1;
  for (let m = 0; m < 28; m++) {
    if (i >= end) return MARK_PLAIN;
    let c = <u32>load<u8>(i);
    if (c == BACKSLASH) {
      const e = <u32>load<u8>(i + 1);
      if (e == 117) {
        c = <u32>hex4(i + 2);
        i += 6;
      } else {
        c = e == 98 ? 8 : e == 102 ? 12 : e == 110 ? 10 : e == 114 ? 13 : e == 116 ? 9 : e;
        i += 2;
      }
    } else i++;
    if (c != markerByte(m)) return MARK_PLAIN;
  }
  return MARK_INTERRUPTED;
}

// How a field's value is read.
const STRING = 1;
const FLAG = 2;
const MARK = 3;
const ID = 4;
const PRESENT = 5;
const MESSAGE_OBJECT = 6;
const CONTENT_VALUE = 7;

const OF_TOP = 0;
const OF_MESSAGE = 1;
const OF_BLOCK = 2;

/** Field `field` (from 1) of object kind `of`: how it is read (low byte) and into which slot (next byte). */
function fieldOf(kind: i32, field: i32): i32 {
  if (kind == OF_TOP) {
    switch (field) {
      case 1:
        return STRING | (TYPE << 8) | (R_TYPE << 16) | (R_TYPE << 24);
      case 2:
        return STRING | (UUID << 8) | (R_UUID << 24);
      case 3:
        return STRING | (PARENT_UUID << 8) | (R_UUID << 16);
      case 4:
        return STRING | (LOGICAL_PARENT_UUID << 8) | (R_UUID << 16);
      case 5:
        return FLAG | (IS_SIDECHAIN << 8);
      case 6:
        return STRING | (SESSION_ID << 8) | (R_SESSION << 16) | (R_SESSION << 24);
      case 7:
        return STRING | (CWD << 8) | (R_CWD << 16) | (R_CWD << 24);
      case 8:
        return STRING | (SUBTYPE << 8) | (R_SUBTYPE << 16) | (R_SUBTYPE << 24);
      case 9:
        return FLAG | (IS_META << 8);
      case 10:
        return FLAG | (IS_COMPACT_SUMMARY << 8);
      case 11:
        return FLAG | (IS_API_ERROR_MESSAGE << 8);
      default:
        return MESSAGE_OBJECT | (MESSAGE << 8);
    }
  }
  if (kind == OF_MESSAGE) {
    if (field == 1) return STRING | (MESSAGE_ID << 8) | (R_MESSAGE << 16) | (R_MESSAGE << 24);
    if (field == 2) return STRING | (MODEL << 8) | (R_MODEL << 16) | (R_MODEL << 24);
    return CONTENT_VALUE | (CONTENT << 8);
  }
  switch (field) {
    case 1:
      return STRING | (BLOCK_TYPE << 8) | (R_BLOCK_TYPE << 16) | (R_BLOCK_TYPE << 24);
    case 2:
      return MARK | (BLOCK_TEXT << 8);
    case 3:
      return ID | (BLOCK_ID << 8);
    case 4:
      return ID | (BLOCK_NAME << 8) | (R_NAME << 16) | (R_NAME << 24);
    case 5:
      return ID | (BLOCK_TOOL_USE_ID << 8);
    case 6:
      return PRESENT | (BLOCK_THINKING << 8);
    default:
      return PRESENT | (BLOCK_DATA << 8);
  }
}

function keyNumber(kind: i32, s: i32, length: i32): i32 {
  return kind == OF_TOP ? topField(s, length) : kind == OF_MESSAGE ? messageField(s, length) : blockField(s, length);
}

/** The object at `at` (an opening brace): its fields of kind `of` read into the slots at `base`; the index after it, or NO. */
function members(at: i32, kind: i32, base: i32): i32 {
  let i = at + 1;
  if (load<u8>(i) == CLOSE_OBJECT) return i + 1;
  for (;;) {
    if (load<u8>(i) != QUOTE) return NO;
    const after = stringEnd(i);
    // An escaped key is read by the caller (it may spell a field's name).
    if (after < 0 || escaped || load<u8>(after) != COLON) return NO;
    watchKey(after);
    const field = keyNumber(kind, i + 1, after - i - 2);
    const v = after + 1;
    const end = field == 0 ? skip(v) : value(v, fieldOf(kind, field), base);
    if (end < 0) return NO;
    const c = load<u8>(end);
    if (c == CLOSE_OBJECT) return end + 1;
    if (c != COMMA) return NO;
    i = end + 1;
  }
  return NO;
}

// The recent tokens: most lines repeat the last line's type, session id, cwd and model, and name the
// last line's uuid as their parent, so most strings are found without a look-up. Each is
// [start, length, key] at recentAt + 12 × its number; a length of -1 is none.
const R_TYPE = 1;
const R_UUID = 2;
const R_SESSION = 3;
const R_CWD = 4;
const R_SUBTYPE = 5;
const R_MESSAGE = 6;
const R_MODEL = 7;
const R_BLOCK_TYPE = 8;
const R_NAME = 9;
const RECENT = 10;
let recentAt = 0;

/** The key of the string token `[at, after)`: recent token `recall`'s when the bytes are the same, else looked up; it becomes recent token `keep` (0: none). */
function recalledKey(at: i32, after: i32, recall: i32, keep: i32): i32 {
  const length = after - at;
  let key = -1;
  if (recall != 0 && !escaped) {
    const recent = recentAt + recall * 12;
    if (load<i32>(recent, 4) == length && sameBytes(load<i32>(recent), at, length)) key = load<i32>(recent, 8);
  }
  if (key < 0) key = tokenKey(at, after);
  if (keep != 0) {
    const recent = recentAt + keep * 12;
    store<i32>(recent, at);
    store<i32>(recent, escaped || key < 0 ? -1 : length, 4);
    store<i32>(recent, key, 8);
  }
  return key;
}

/** The value at `v` of a field read as `how` (fieldOf) into its slot at `base`: the index after it, or NO. */
function value(v: i32, how: i32, base: i32): i32 {
  const kind = how & 0xff;
  const slot = base + (((how >> 8) & 0xff) << 2);
  const c = load<u8>(v);
  if (kind == FLAG) {
    store<i32>(slot, load<u32>(v) == 0x65757274 ? 1 : 0);
    return skip(v);
  }
  if (kind == MESSAGE_OBJECT) return message(v);
  if (kind == CONTENT_VALUE) blockCount = rowBlocks;
  if (c == QUOTE) {
    const after = stringEnd(v);
    if (after < 0) return NO;
    if (kind == STRING || kind == ID) {
      const key = recalledKey(v, after, (how >> 16) & 0xff, how >> 24);
      if (key < 0) return NO;
      store<i32>(slot, key);
    } else if (kind == PRESENT) store<i32>(slot, 1);
    else store<i32>(slot, markOf(v, after));
    return after;
  }
  if (kind == ID) return NO;
  if (kind == CONTENT_VALUE && c == OPEN_ARRAY) return contentBlocks(v);
  store<i32>(slot, kind == PRESENT ? 0 : -1);
  return skip(v);
}

/** The `message` value at `v`: an object's fields into the row's message slots (all unset for any other value). */
function message(v: i32): i32 {
  blockCount = rowBlocks;
  for (let slot = MESSAGE_ID; slot <= BLOCKS_END; slot++) store<i32>(rowBase + (slot << 2), -1);
  const isObject = load<u8>(v) == OPEN_OBJECT;
  store<i32>(rowBase + (MESSAGE << 2), isObject ? 1 : 0);
  return isObject ? members(v, OF_MESSAGE, rowBase) : skip(v);
}

/** The content array at `at`: its objects read as the row's blocks, anything else skipped. */
function contentBlocks(at: i32): i32 {
  store<i32>(rowBase + (CONTENT << 2), CONTENT_BLOCKS);
  store<i32>(rowBase + (BLOCKS_START << 2), blockCount);
  let i = at + 1;
  if (load<u8>(i) != CLOSE_ARRAY)
    for (;;) {
      if (load<u8>(i) == OPEN_OBJECT) {
        if (blockCount == blocksCap) {
          full = true;
          return NO;
        }
        const block = blocksAt + blockCount * (BLOCK << 2);
        blockCount++;
        store<i32>(block + (BLOCK_TYPE << 2), -1);
        store<i32>(block + (BLOCK_TEXT << 2), MARK_NONE);
        store<i32>(block + (BLOCK_ID << 2), -1);
        store<i32>(block + (BLOCK_NAME << 2), -1);
        store<i32>(block + (BLOCK_TOOL_USE_ID << 2), -1);
        store<i32>(block + (BLOCK_THINKING << 2), 0);
        store<i32>(block + (BLOCK_DATA << 2), 0);
        i = members(i, OF_BLOCK, block);
      } else i = skip(i);
      if (i < 0) return NO;
      const next = load<u8>(i);
      if (next == CLOSE_ARRAY) break;
      if (next != COMMA) return NO;
      i++;
    }
  store<i32>(rowBase + (BLOCKS_END << 2), blockCount);
  return i + 1;
}

// ---------------------------------------------------------------- lines

/** Starts row `rowCount` for the line at `start` (0-based `index`), every slot at its default. */
function beginRow(index: i32, start: i32): void {
  const base = rowsAt + rowCount * (ROW << 2);
  for (let slot = 0; slot < ROW; slot++) store<i32>(base + (slot << 2), -1);
  store<i32>(base + (IS_SIDECHAIN << 2), 0);
  store<i32>(base + (IS_META << 2), 0);
  store<i32>(base + (IS_COMPACT_SUMMARY << 2), 0);
  store<i32>(base + (IS_API_ERROR_MESSAGE << 2), 0);
  store<i32>(base + (MESSAGE << 2), 0);
  store<i32>(base + (LINE_INDEX << 2), index);
  store<i32>(base + (LINE_START << 2), start);
  rowBase = base;
  rowBlocks = blockCount;
}

/** Reads the line at `start` into the current row: the index of its end (its newline, or the input's end), or NO. */
function line(start: i32): i32 {
  if (load<u8>(start) != OPEN_OBJECT) return NO;
  const end = members(start, OF_TOP, rowBase);
  if (end < 0) return NO;
  return load<u8>(end) == NEWLINE || end == inputLength ? end : NO;
}

// Where the scan stands: the next line's first byte and its 0-based index.
let scanPos = 0;
let scanIndex = 0;

/**
 * Reads the lines that start before `limit` — every one of them ends there (the caller passes the
 * index after a newline, or the input's length) — on from where the last call stopped: a row for
 * each line that is not empty, in file order (a declined line's row holds only its index and
 * bytes, and its row number is listed). The caller may scan a file while it is still reading it.
 * DONE, or FULL when a region is too small (then every later call is FULL too).
 */
export function scan(limit: i32): i32 {
  if (full) return FULL;
  let index = scanIndex;
  let pos = scanPos;
  while (pos < limit) {
    if (load<u8>(pos) == NEWLINE) {
      pos++;
      index++;
      continue;
    }
    if (rowCount == rowsCap) {
      full = true;
      return FULL;
    }
    beginRow(index, pos);
    const watchedBefore = watchedCount;
    let end = line(pos);
    if (full) return FULL;
    if (end < 0) {
      // Declined: its blocks and watched keys are found again by whoever reads it.
      blockCount = rowBlocks;
      watchedCount = watchedBefore;
      end = newlineFrom(pos);
      store<i32>(declinedAt + (declinedCount << 2), rowCount);
      declinedCount++;
    }
    store<i32>(rowBase + (LINE_END << 2), end);
    rowCount++;
    index++;
    pos = end + 1;
  }
  scanPos = pos;
  scanIndex = index;
  return DONE;
}

/**
 * Writes the `length` bytes at `replacement` over each pair that starts at a watched key (the
 * `"sessionId"` keys of the lines read, file order) before `limit`, where the `length` bytes at
 * `pattern` stand (a fork's `"sessionId":"<from>"` → `"sessionId":"<to>"`, of the same length).
 * Returns how many were written.
 */
export function patchWatched(pattern: i32, replacement: i32, length: i32, limit: i32): i32 {
  let count = 0;
  let free = 0;
  for (let k = 0; k < watchedCount; k++) {
    const at = load<i32>(watchedAt + (k << 2));
    if (at >= limit) break;
    if (at < free || at + length > inputLength || !sameBytes(at, pattern, length)) continue;
    memory.copy(at, replacement, length);
    free = at + length;
    count++;
  }
  return count;
}

/** The number (from 1) of the TOP field whose key is the `len` bytes at `s`, 0 for another key. */
function topField(s: i32, len: i32): i32 {
  switch (len) {
    case 3:
      if (load<u16>(s + 0) == 0x7763 && load<u8>(s + 2) == 0x64) return 7; // cwd
      return 0;
    case 4:
      if (load<u32>(s + 0) == 0x65707974) return 1; // type
      if (load<u32>(s + 0) == 0x64697575) return 2; // uuid
      return 0;
    case 6:
      if (load<u32>(s + 0) == 0x654d7369 && load<u16>(s + 4) == 0x6174) return 9; // isMeta
      return 0;
    case 7:
      if (load<u32>(s + 0) == 0x74627573 && load<u16>(s + 4) == 0x7079 && load<u8>(s + 6) == 0x65) return 8; // subtype
      if (load<u32>(s + 0) == 0x7373656d && load<u16>(s + 4) == 0x6761 && load<u8>(s + 6) == 0x65) return 12; // message
      return 0;
    case 9:
      if (load<u64>(s + 0) == 0x496e6f6973736573 && load<u8>(s + 8) == 0x64) return 6; // sessionId
      return 0;
    case 10:
      if (load<u64>(s + 0) == 0x7555746e65726170 && load<u16>(s + 8) == 0x6469) return 3; // parentUuid
      return 0;
    case 11:
      if (load<u64>(s + 0) == 0x6863656469537369 && load<u16>(s + 8) == 0x6961 && load<u8>(s + 10) == 0x6e) return 5; // isSidechain
      return 0;
    case 16:
      if (load<u64>(s + 0) == 0x6361706d6f437369 && load<u64>(s + 8) == 0x7972616d6d755374) return 10; // isCompactSummary
      return 0;
    case 17:
      if (load<u64>(s + 0) == 0x506c616369676f6c && load<u64>(s + 8) == 0x697555746e657261 && load<u8>(s + 16) == 0x64) return 4; // logicalParentUuid
      if (load<u64>(s + 0) == 0x7272456970417369 && load<u64>(s + 8) == 0x67617373654d726f && load<u8>(s + 16) == 0x65) return 11; // isApiErrorMessage
      return 0;
  }
  return 0;
}

/** The number (from 1) of the MESSAGE field whose key is the `len` bytes at `s`, 0 for another key. */
function messageField(s: i32, len: i32): i32 {
  switch (len) {
    case 2:
      if (load<u16>(s + 0) == 0x6469) return 1; // id
      return 0;
    case 5:
      if (load<u32>(s + 0) == 0x65646f6d && load<u8>(s + 4) == 0x6c) return 2; // model
      return 0;
    case 7:
      if (load<u32>(s + 0) == 0x746e6f63 && load<u16>(s + 4) == 0x6e65 && load<u8>(s + 6) == 0x74) return 3; // content
      return 0;
  }
  return 0;
}

/** The number (from 1) of the BLOCK field whose key is the `len` bytes at `s`, 0 for another key. */
function blockField(s: i32, len: i32): i32 {
  switch (len) {
    case 2:
      if (load<u16>(s + 0) == 0x6469) return 3; // id
      return 0;
    case 4:
      if (load<u32>(s + 0) == 0x65707974) return 1; // type
      if (load<u32>(s + 0) == 0x74786574) return 2; // text
      if (load<u32>(s + 0) == 0x656d616e) return 4; // name
      if (load<u32>(s + 0) == 0x61746164) return 7; // data
      return 0;
    case 8:
      if (load<u64>(s + 0) == 0x676e696b6e696874) return 6; // thinking
      return 0;
    case 11:
      if (load<u64>(s + 0) == 0x6573755f6c6f6f74 && load<u16>(s + 8) == 0x695f && load<u8>(s + 10) == 0x64) return 5; // tool_use_id
      return 0;
  }
  return 0;
}
