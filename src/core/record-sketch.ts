/**
 * A streaming reader for one JSON record too large to parse whole (a
 * multi-megabyte assistant turn). It keeps only the few small fields that
 * decide occupancy, so memory stays flat whatever the line's size.
 */

/** Dotted paths kept; everything else is skipped as it streams past. */
const KEPT_PATHS = new Set([
  'type',
  'subtype',
  'isSidechain',
  'isApiErrorMessage',
  'agentId',
  'compactMetadata',
  'message.model',
  'message.usage',
]);
/** A kept value larger than this is not a real usage or metadata object; it is dropped. */
const MAX_KEPT_BYTES = 64 * 1024;
const MAX_KEY_BYTES = 256;
/**
 * No real record nests this deep; past it the record is treated as garbage,
 * so one line of 60 MB of brackets cannot grow the stack to gigabytes.
 */
export const MAX_SKETCH_DEPTH = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

type Expect = 'value' | 'key' | 'colon' | 'after';
type Keeping = { path: string; depth: number; parts: Uint8Array[]; size: number; from: number };

export class RecordSketch {
  private stack: Array<'o' | 'a'> = [];
  private keys: Array<string | undefined> = [];
  private expect: Expect = 'value';
  private inString = false;
  private stringIsKey = false;
  private escaped = false;
  private inLiteral = false;
  private keyBytes: number[] = [];
  private keyUsable = true;
  private keeping: Keeping | undefined;
  private kept = new Map<string, string>();
  private done = false;
  private broken = false;
  private decoder = new TextDecoder();

  /** Feed the next bytes of the record, in order. */
  feed(chunk: Uint8Array): void {
    if (this.broken) return;
    if (this.keeping) this.keeping.from = 0;
    let i = 0;
    const n = chunk.length;
    while (i < n && !this.broken) {
      if (this.inString) {
        i = this.scanString(chunk, i);
        continue;
      }
      const c = chunk[i]!;
      if (this.inLiteral) {
        if (isLiteralByte(c)) {
          i++;
          continue;
        }
        this.inLiteral = false;
        this.endValue(chunk, i - 1);
        continue; // re-examine c as a delimiter
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      if (this.done) {
        this.broken = true; // trailing garbage after the root object
        break;
      }
      this.structural(chunk, i, c);
      i++;
    }
    if (this.keeping && !this.broken) this.keepPart(chunk.subarray(this.keeping.from));
  }

  /** A byte outside strings and literals, read against what the grammar expects next. */
  private structural(chunk: Uint8Array, i: number, c: number): void {
    switch (this.expect) {
      case 'key':
        if (c === QUOTE) this.startString(true);
        else if (c === 0x7d /* } */ && this.keys[this.keys.length - 1] === undefined) this.close(chunk, i, 'o');
        else this.broken = true;
        break;
      case 'colon':
        if (c === 0x3a) this.expect = 'value';
        else this.broken = true;
        break;
      case 'after':
        if (c === 0x2c /* , */) this.expect = this.stack[this.stack.length - 1] === 'o' ? 'key' : 'value';
        else if (c === 0x7d) this.close(chunk, i, 'o');
        else if (c === 0x5d) this.close(chunk, i, 'a');
        else this.broken = true;
        break;
      case 'value':
        this.openValue(chunk, i, c);
        break;
    }
  }

  /** The first byte of a value: an empty array's close, a container, a string or a literal. */
  private openValue(chunk: Uint8Array, i: number, c: number): void {
    if (c === 0x5d && this.stack[this.stack.length - 1] === 'a') {
      this.close(chunk, i, 'a'); // empty array
      return;
    }
    if (this.stack.length === 0 && c !== 0x7b) {
      this.broken = true; // the root must be an object
      return;
    }
    this.startValue(i);
    if ((c === 0x7b || c === 0x5b) && this.stack.length >= MAX_SKETCH_DEPTH) {
      this.broken = true;
      return;
    }
    if (c === 0x7b) {
      this.stack.push('o');
      this.keys.push(undefined);
      this.expect = 'key';
    } else if (c === 0x5b) {
      this.stack.push('a');
      this.keys.push(undefined);
      this.expect = 'value';
    } else if (c === QUOTE) {
      this.startString(false);
    } else if (isLiteralByte(c)) {
      this.inLiteral = true;
    } else {
      this.broken = true;
    }
  }

  /** The kept fields as a small record, or undefined when the bytes were not one complete JSON object. */
  result(): Record<string, unknown> | undefined {
    if (this.broken || !this.done) return undefined;
    const value = (path: string): unknown => {
      const text = this.kept.get(path);
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    };
    const record: Record<string, unknown> = {};
    for (const path of ['type', 'subtype', 'isSidechain', 'isApiErrorMessage', 'agentId', 'compactMetadata']) {
      if (this.kept.has(path)) record[path] = value(path);
    }
    if (this.kept.has('message.model') || this.kept.has('message.usage')) {
      record.message = { model: value('message.model'), usage: value('message.usage') };
    }
    return record;
  }

  private startString(isKey: boolean): void {
    this.inString = true;
    this.stringIsKey = isKey;
    this.escaped = false;
    if (isKey) {
      this.keyBytes = [];
      this.keyUsable = true;
    }
  }

  /** Skip through a string using native searches; returns the index after what was consumed. */
  private scanString(chunk: Uint8Array, from: number): number {
    let i = from;
    const n = chunk.length;
    while (i < n) {
      if (this.escaped) {
        this.escaped = false;
        if (this.stringIsKey) this.keyUsable = false;
        i++;
        continue;
      }
      if (this.stringIsKey) {
        const c = chunk[i]!;
        if (c === QUOTE) return this.endString(chunk, i);
        if (c === BACKSLASH) this.escaped = true;
        else if (this.keyBytes.length < MAX_KEY_BYTES) this.keyBytes.push(c);
        else this.keyUsable = false;
        i++;
        continue;
      }
      const quote = chunk.indexOf(QUOTE, i);
      const slash = chunk.indexOf(BACKSLASH, i);
      if (slash !== -1 && (quote === -1 || slash < quote)) {
        this.escaped = true;
        i = slash + 1;
        continue;
      }
      if (quote === -1) return n;
      return this.endString(chunk, quote);
    }
    return n;
  }

  private endString(chunk: Uint8Array, at: number): number {
    this.inString = false;
    if (this.stringIsKey) {
      this.keys[this.keys.length - 1] = this.keyUsable ? String.fromCharCode(...this.keyBytes) : '\u0000';
      this.expect = 'colon';
    } else {
      this.endValue(chunk, at);
    }
    return at + 1;
  }

  private close(chunk: Uint8Array, at: number, kind: 'o' | 'a'): void {
    if (this.stack[this.stack.length - 1] !== kind) {
      this.broken = true;
      return;
    }
    this.stack.pop();
    this.keys.pop();
    this.endValue(chunk, at);
  }

  /** A value (scalar, or container just closed) ended at `at`, inclusive. */
  private endValue(chunk: Uint8Array, at: number): void {
    this.expect = 'after';
    if (this.stack.length === 0) this.done = true;
    const keeping = this.keeping;
    if (keeping && this.stack.length === keeping.depth) {
      this.keepPart(chunk.subarray(keeping.from, at + 1));
      if (keeping.size <= MAX_KEPT_BYTES) {
        const bytes = new Uint8Array(keeping.size);
        let offset = 0;
        for (const part of keeping.parts) {
          bytes.set(part, offset);
          offset += part.length;
        }
        this.kept.set(keeping.path, this.decoder.decode(bytes));
      }
      this.keeping = undefined;
    }
  }

  private startValue(at: number): void {
    if (this.keeping || this.stack.length === 0 || this.stack.length > 2) return;
    if (this.stack.some((kind) => kind !== 'o')) return;
    const path = this.keys.join('.');
    if (KEPT_PATHS.has(path)) this.keeping = { path, depth: this.stack.length, parts: [], size: 0, from: at };
  }

  private keepPart(part: Uint8Array): void {
    const keeping = this.keeping!;
    keeping.size += part.length;
    if (keeping.size <= MAX_KEPT_BYTES) keeping.parts.push(part.slice());
    else keeping.parts = [];
  }
}

function isLiteralByte(c: number): boolean {
  // digits, sign, exponent, decimal point and the letters of true/false/null
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}
