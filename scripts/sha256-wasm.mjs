// Assembles src/core/sha256.wat into src/core/sha256-wasm.ts (committed): `npm run build:wasm`.
// test/unit/sha256.test.ts assembles it again and compares, so the text format stays the source.
import { readFileSync, writeFileSync } from 'node:fs';
import wabtModule from 'wabt';

const WAT = 'src/core/sha256.wat';
const OUT = 'src/core/sha256-wasm.ts';

const wabt = await wabtModule();
const bytes = wabt.parseWat(WAT, readFileSync(WAT, 'utf8')).toBinary({}).buffer;
const rows = [];
for (let at = 0; at < bytes.length; at += 24) rows.push(`  ${[...bytes.subarray(at, at + 24)].join(', ')},`);
writeFileSync(
  OUT,
  `/** src/core/sha256.wat assembled (\`npm run build:wasm\`; a unit test keeps them equal): ${bytes.length} bytes. */\n// biome-ignore format: generated\nexport const SHA256_WASM = [\n${rows.join('\n')}\n];\n`,
);
console.log(`${OUT}: ${bytes.length} bytes`);
