/**
 * A transcript line's record type, read from its bytes without parsing it: replay, and the hooks'
 * backward reader on a line longer than a read, skip the records that can never decide anything (tool
 * results, progress, bookkeeping: most of a transcript's bytes) after looking at a few bytes of each.
 * Each function is compiled with the hook bundle ('eager', tsup.config.ts): a hook's code cache written on a
 * short transcript, which never sniffs, still holds them for the long ones.
 */

/** The sniff could not tell the type (malformed, escaped, no top-level object): read the line the slow, exact way. */
export const SNIFF_UNKNOWN = -1;
/** A top-level `type` that is none of the names asked about, or no `type` at all. */
export const SNIFF_OTHER = -2;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const TYPE_KEY = [0x74, 0x79, 0x70, 0x65]; // type

/**
 * The first top-level `"type"` value of the JSON object on `bytes[start, end)`, as an index into
 * `names`, else SNIFF_OTHER (another type, or none) or SNIFF_UNKNOWN. Values before it are skipped
 * structurally (strings with `indexOf`), so a record's big message or attachment costs a few jumps.
 * Claude Code writes each key once; a line with two top-level `type`s is judged by its first.
 */
export function sniffRecordType(bytes: Uint8Array, start: number, end: number, names: readonly Uint8Array[]): number {
  'eager';
  let i = skipSpace(bytes, start, end);
  if (i >= end || bytes[i] !== OPEN_BRACE) return SNIFF_UNKNOWN;
  i = skipSpace(bytes, i + 1, end);
  if (i < end && bytes[i] === CLOSE_BRACE) return SNIFF_OTHER;
  for (;;) {
    if (i >= end || bytes[i] !== QUOTE) return SNIFF_UNKNOWN;
    const keyEnd = stringEnd(bytes, i, end);
    if (keyEnd < 0) return SNIFF_UNKNOWN;
    for (let k = i + 1; k < keyEnd - 1; k++) if (bytes[k] === BACKSLASH) return SNIFF_UNKNOWN; // an escaped key may spell "type"
    const isType = keyEnd - i === 6 && equalsAt(bytes, i + 1, TYPE_KEY);
    i = skipSpace(bytes, keyEnd, end);
    if (i >= end || bytes[i] !== COLON) return SNIFF_UNKNOWN;
    i = skipSpace(bytes, i + 1, end);
    if (isType) return typeValue(bytes, i, end, names);
    i = valueEnd(bytes, i, end);
    if (i < 0) return SNIFF_UNKNOWN;
    i = skipSpace(bytes, i, end);
    if (i < end && bytes[i] === CLOSE_BRACE) return SNIFF_OTHER;
    if (i >= end || bytes[i] !== COMMA) return SNIFF_UNKNOWN;
    i = skipSpace(bytes, i + 1, end);
  }
}

function typeValue(bytes: Uint8Array, at: number, end: number, names: readonly Uint8Array[]): number {
  'eager';
  if (at >= end) return SNIFF_UNKNOWN;
  if (bytes[at] !== QUOTE) return SNIFF_OTHER; // a type that is not a string is no record we read
  const close = stringEnd(bytes, at, end);
  if (close < 0) return SNIFF_UNKNOWN;
  const length = close - at - 2;
  for (let k = at + 1; k < close - 1; k++) if (bytes[k] === BACKSLASH) return SNIFF_UNKNOWN; // escaped: let JSON.parse say
  for (let n = 0; n < names.length; n++) if (names[n]!.length === length && equalsAt(bytes, at + 1, names[n]!)) return n;
  return SNIFF_OTHER;
}

function equalsAt(bytes: Uint8Array, at: number, name: ArrayLike<number>): boolean {
  'eager';
  for (let k = 0; k < name.length; k++) if (bytes[at + k] !== name[k]) return false;
  return true;
}

function skipSpace(bytes: Uint8Array, i: number, end: number): number {
  'eager';
  while (i < end) {
    const c = bytes[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return i;
    i += 1;
  }
  return i;
}

/** The index just past the string opening at `at`, or -1 when it does not close before `end`. */
function stringEnd(bytes: Uint8Array, at: number, end: number): number {
  'eager';
  let from = at + 1;
  for (;;) {
    const quote = nextQuote(bytes, from, end);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/**
 * A record's keys and most of its values are short strings, and a call into Node's native search costs what
 * ~100 bytes looked at here do (replay sniffs tens of strings per assistant line and attachment): the first
 * INLINE_SEARCH_BYTES are looked at one by one, a longer string is searched natively from there.
 */
const INLINE_SEARCH_BYTES = 64;

/** The first quote in `bytes[from, end)`, or -1. */
function nextQuote(bytes: Uint8Array, from: number, end: number): number {
  'eager';
  const inlineEnd = Math.min(end, from + INLINE_SEARCH_BYTES);
  for (let i = from; i < inlineEnd; i++) if (bytes[i] === QUOTE) return i;
  if (inlineEnd >= end) return -1;
  const quote = bytes.indexOf(QUOTE, inlineEnd);
  return quote < end ? quote : -1;
}

/** The index just past the value starting at `at`, or -1 when it is malformed or runs past `end`. */
function valueEnd(bytes: Uint8Array, at: number, end: number): number {
  'eager';
  if (at >= end) return -1;
  const first = bytes[at];
  if (first === QUOTE) return stringEnd(bytes, at, end);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let i = at;
    while (i < end) {
      const c = bytes[i]!;
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break;
      if (c === QUOTE || c === OPEN_BRACE || c === OPEN_BRACKET || c === COLON) return -1;
      i += 1;
    }
    return i > at ? i : -1;
  }
  let depth = 0;
  for (let i = at; i < end; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      const close = stringEnd(bytes, i, end);
      if (close < 0) return -1;
      i = close - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
