/**
 * SHA-256 (FIPS 180-4) as lowercase hex: the same digest node:crypto gives, without loading it. Loading
 * node:crypto costs a hook ~15 % of a Node start (bench/RESULTS.md), and the hooks hash a folder's path on every
 * prompt and a checkpoint's bytes around each compaction. The compression function runs as WebAssembly
 * (core/sha256.wat: ~0.4 M instructions to instantiate, then native speed); where the runtime offers none
 * (`--jitless`), in JavaScript, which V8 only interprets in a process this short (~3–4 M instructions a KiB):
 * callers then keep node:crypto for long inputs (checkpoints/provenance.ts `digestOf`).
 */
import { SHA256_WASM } from './sha256-wasm.js';

/** What core/sha256.wat exports. */
type Compressor = { memory: { buffer: ArrayBuffer }; init: () => void; blocks: (count: number) => void };

// The one WebAssembly API used, declared here: the project's lib (ES2022) has no WebAssembly types.
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

/** Where core/sha256.wat takes the blocks to compress, and how many bytes of them at a time. */
const DATA = 1024;
const CHUNK = 32 * 1024;

/** The compressor, instantiated on first use; null where WebAssembly is unavailable. */
let compressor: Compressor | null | undefined;

function wasmCompressor(): Compressor | null {
  if (compressor === undefined) {
    try {
      compressor = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(SHA256_WASM))).exports as Compressor;
    } catch {
      compressor = null; // no WebAssembly (`--jitless`), or no memory for it
    }
  }
  return compressor;
}

/** The digest of `input` (a string is hashed as its UTF-8 bytes) by WebAssembly; undefined where the runtime has none. */
export function sha256Wasm(input: string | Uint8Array): string | undefined {
  const wasm = wasmCompressor();
  if (!wasm) return undefined;
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const memory = new Uint8Array(wasm.memory.buffer);
  wasm.init();
  const whole = bytes.length - (bytes.length % 64);
  for (let at = 0; at < whole; at += CHUNK) {
    const end = Math.min(at + CHUNK, whole);
    memory.set(bytes.subarray(at, end), DATA);
    wasm.blocks((end - at) / 64);
  }
  // The rest of the message, a 1 bit, zeros, and its length in bits (64-bit big-endian): one block or two.
  const rest = bytes.length - whole;
  const tail = rest < 56 ? 64 : 128;
  memory.fill(0, DATA, DATA + tail);
  memory.set(bytes.subarray(whole), DATA);
  memory[DATA + rest] = 0x80;
  const view = new DataView(wasm.memory.buffer);
  view.setUint32(DATA + tail - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(DATA + tail - 4, (bytes.length << 3) >>> 0);
  wasm.blocks(tail / 64);
  let hex = '';
  for (let at = 0; at < 32; at += 4) hex += view.getUint32(at, true).toString(16).padStart(8, '0');
  return hex;
}

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * The digest in JavaScript, where there is no WebAssembly. Written for a function that runs once per process, in
 * V8's interpreter and baseline tiers, never optimised: every rotation is written out (a call per rotation cost
 * PreCompact ~2 M instructions on a checkpoint's 800 bytes) and the working state stays in locals.
 */
export function sha256Js(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian) filling whole 64-byte blocks.
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(padded.length - 4, (bytes.length << 3) >>> 0);
  // Signed 32-bit words throughout (`| 0` keeps each sum modulo 2^32); printed unsigned at the end.
  let h0 = 0x6a09e667 | 0;
  let h1 = 0xbb67ae85 | 0;
  let h2 = 0x3c6ef372 | 0;
  let h3 = 0xa54ff53a | 0;
  let h4 = 0x510e527f | 0;
  let h5 = 0x9b05688c | 0;
  let h6 = 0x1f83d9ab | 0;
  let h7 = 0x5be0cd19 | 0;
  const w = new Int32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getInt32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  let hex = '';
  for (const word of [h0, h1, h2, h3, h4, h5, h6, h7]) hex += (word >>> 0).toString(16).padStart(8, '0');
  return hex;
}
