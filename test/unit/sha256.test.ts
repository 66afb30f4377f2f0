import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/sha256.js';

const nodeSha256 = (input: string | Uint8Array) => createHash('sha256').update(input).digest('hex');

describe('sha256Hex: the digest node:crypto gives, without loading it', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ])('FIPS 180-4 example %j', (input, digest) => {
    expect(sha256Hex(input)).toBe(digest);
  });

  it('pads at every block boundary (lengths 0 to 200 bytes)', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(sha256Hex(bytes), `${n} bytes`).toBe(nodeSha256(bytes));
    }
  });

  it('hashes a text as its UTF-8 bytes (a lone surrogate as U+FFFD), as createHash().update(text) does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(nodeSha256(text));
      }),
    );
  });

  it('agrees with node:crypto on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        expect(sha256Hex(bytes)).toBe(nodeSha256(bytes));
      }),
    );
  });
});
