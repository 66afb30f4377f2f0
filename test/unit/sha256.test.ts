import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import wabtModule from 'wabt';
import { sha256Js, sha256Wasm } from '../../src/core/sha256.js';
import { SHA256_WASM } from '../../src/core/sha256-wasm.js';

const nodeSha256 = (input: string | Uint8Array) => createHash('sha256').update(input).digest('hex');

/** The WebAssembly one, which Node and Bun run; the JavaScript one where WebAssembly is off (`--jitless`). */
const sha256Of = (input: string | Uint8Array) => {
  const digest = sha256Wasm(input);
  if (digest === undefined) throw new Error('no WebAssembly in this Node');
  return digest;
};

describe.each([
  ['WebAssembly', sha256Of],
  ['JavaScript', sha256Js],
])('SHA-256 in %s: the digest node:crypto gives, without loading it', (_name, sha256) => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ])('FIPS 180-4 example %j', (input, digest) => {
    expect(sha256(input)).toBe(digest);
  });

  it('pads at every block boundary (lengths 0 to 200 bytes)', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(sha256(bytes), `${n} bytes`).toBe(nodeSha256(bytes));
    }
  });

  it('hashes a text as its UTF-8 bytes (a lone surrogate as U+FFFD), as createHash().update(text) does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(sha256(text)).toBe(nodeSha256(text));
      }),
    );
  });

  it('agrees with node:crypto on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        expect(sha256(bytes)).toBe(nodeSha256(bytes));
      }),
    );
  });
});

describe('SHA-256 in WebAssembly', () => {
  it('hashes inputs longer than the 32 KiB it compresses at a time, at and around each boundary', () => {
    for (const n of [32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1, 64 * 1024 + 55, 64 * 1024 + 56, 300_001]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 7 + (i >> 9)) & 0xff);
      expect(sha256Of(bytes), `${n} bytes`).toBe(nodeSha256(bytes));
    }
  });

  it('hashes one message after another the same way (the state is reset, the tail block zeroed)', () => {
    const long = 'x'.repeat(1000);
    const first = sha256Of(long);
    expect(sha256Of('abc')).toBe(nodeSha256('abc'));
    expect(sha256Of(long)).toBe(first);
  });

  it('is src/core/sha256.wat assembled (npm run build:wasm)', async () => {
    const wabt = await wabtModule();
    const wat = 'src/core/sha256.wat';
    const bytes = wabt.parseWat(wat, readFileSync(wat, 'utf8')).toBinary({}).buffer;
    expect(SHA256_WASM).toEqual([...bytes]);
  });
});
