/**
 * Reads one JavaScript literal (objects, arrays, strings, numbers, `!0`/`!1`, `null`, `void 0`) without evaluating
 * anything: the model catalog is minified JS inside the Claude Code binary, and our generated table is Biome-formatted TS.
 */

/** A literal that is not plain data (a call, a variable, a spread) stops here with the offset and what was found. */
export class LiteralError extends Error {}

const MAX_DEPTH = 64;
const ESCAPES = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', 0: '\0' };
const NUMBER = /^-?(?:0x[0-9a-f]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:e[+-]?\d+)?)/i;
const IDENTIFIER = /^[A-Za-z_$][\w$]*/;
const WORDS = [
  ['!0', true],
  ['!1', false],
  ['true', true],
  ['false', false],
  ['null', null],
  ['void 0', undefined],
];

/** Parses the literal that starts at `start` (leading whitespace allowed); returns it and the offset just after it. */
export function readLiteral(text, start = 0) {
  const reader = { text, at: start };
  const value = readValue(reader, 0);
  return { value, end: reader.at };
}

function readValue(reader, depth) {
  if (depth > MAX_DEPTH) fail(reader, `nesting deeper than ${MAX_DEPTH}`);
  skipSpace(reader);
  const c = reader.text[reader.at];
  if (c === '{') return readObject(reader, depth);
  if (c === '[') return readArray(reader, depth);
  if (c === '"' || c === "'" || c === '`') return readString(reader);
  const rest = reader.text.slice(reader.at, reader.at + 64);
  for (const [word, value] of WORDS) {
    if (rest.startsWith(word) && !/[\w$]/.test(rest[word.length] ?? '')) {
      reader.at += word.length;
      return value;
    }
  }
  const number = NUMBER.exec(rest);
  if (number && !/[\w$.]/.test(rest[number[0].length] ?? '')) {
    reader.at += number[0].length;
    return Number(number[0].replaceAll('_', ''));
  }
  return fail(reader, `not a literal: ${JSON.stringify(rest.slice(0, 24))}`);
}

function readObject(reader, depth) {
  const object = {};
  reader.at += 1;
  for (;;) {
    skipSpace(reader);
    if (reader.text[reader.at] === '}') break;
    const key = readKey(reader);
    if (key === '__proto__' || Object.hasOwn(object, key)) fail(reader, `duplicate or forbidden key ${JSON.stringify(key)}`);
    skipSpace(reader);
    expect(reader, ':');
    object[key] = readValue(reader, depth + 1);
    if (!readSeparator(reader, '}')) break;
  }
  reader.at += 1;
  return object;
}

function readArray(reader, depth) {
  const array = [];
  reader.at += 1;
  for (;;) {
    skipSpace(reader);
    if (reader.text[reader.at] === ']') break;
    array.push(readValue(reader, depth + 1));
    if (!readSeparator(reader, ']')) break;
  }
  reader.at += 1;
  return array;
}

/** After a member: `,` means more may follow (a trailing comma is fine), the closer ends the list. */
function readSeparator(reader, closer) {
  skipSpace(reader);
  const c = reader.text[reader.at];
  if (c === ',') {
    reader.at += 1;
    return true;
  }
  if (c !== closer) fail(reader, `expected "," or "${closer}"`);
  return false;
}

function readKey(reader) {
  const c = reader.text[reader.at];
  if (c === '"' || c === "'") return readString(reader);
  const name = IDENTIFIER.exec(reader.text.slice(reader.at, reader.at + 256)) ?? NUMBER.exec(reader.text.slice(reader.at, reader.at + 64));
  if (!name) fail(reader, 'expected a property name');
  reader.at += name[0].length;
  return name[0];
}

function readString(reader) {
  const quote = reader.text[reader.at];
  let out = '';
  for (let i = reader.at + 1; i < reader.text.length; i++) {
    const c = reader.text[i];
    if (c === quote) {
      reader.at = i + 1;
      return out;
    }
    if (quote === '`' && c === '$' && reader.text[i + 1] === '{')
      fail({ ...reader, at: i }, 'a template with a substitution is not a literal');
    if (c === '\n' && quote !== '`') fail({ ...reader, at: i }, 'unterminated string');
    if (c !== '\\') {
      out += c;
      continue;
    }
    const escaped = readEscape(reader.text, i + 1, reader);
    out += escaped.char;
    i = escaped.next - 1;
  }
  return fail(reader, 'unterminated string');
}

function readEscape(text, at, reader) {
  const c = text[at];
  if (c === 'u' && text[at + 1] === '{') {
    const close = text.indexOf('}', at);
    return { char: codePoint(text.slice(at + 2, close), reader), next: close + 1 };
  }
  if (c === 'u') return { char: codePoint(text.slice(at + 1, at + 5), reader), next: at + 5 };
  if (c === 'x') return { char: codePoint(text.slice(at + 1, at + 3), reader), next: at + 3 };
  if (c === '\n') return { char: '', next: at + 1 };
  return { char: Object.hasOwn(ESCAPES, c) ? ESCAPES[c] : c, next: at + 1 };
}

function codePoint(hex, reader) {
  if (!/^[0-9a-f]{1,6}$/i.test(hex)) fail(reader, `bad escape \\u${hex}`);
  return String.fromCodePoint(Number.parseInt(hex, 16));
}

function skipSpace(reader) {
  while (/\s/.test(reader.text[reader.at] ?? '')) reader.at += 1;
  if (reader.at >= reader.text.length) fail(reader, 'the text ends inside the literal');
}

function expect(reader, char) {
  if (reader.text[reader.at] !== char) fail(reader, `expected "${char}"`);
  reader.at += 1;
}

function fail(reader, reason) {
  throw new LiteralError(`${reason} at offset ${reader.at}`);
}
