/**
 * Real transcripts and status line inputs recorded from each Claude Code version, in
 * test/fixtures/claude-code-<version>/ (paths rewritten to /home/dev/...), with what each holds: the tests that
 * prove our readers on the real format run on every version listed here. Add a version by recording the same files.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './sandbox.js';

export type RealClient = {
  version: string;
  /** test/fixtures/claude-code-<version> */
  dir: string;
  /** auto-compact.jsonl, as our reader measures it. */
  autoCompact: { tokens: number; source: 'usage' | 'compaction' };
  /** skill-then-manual-compact.jsonl: a /compact is the newest event, so occupancy is its postTokens. */
  manualCompact: { tokens: number; source: 'compaction' };
  /** statusline-after-turn.json: the session, its prompt-side usage and the line we print for it. */
  statusAfterTurn: { sessionId: string; usageTokens: number; line: string };
};

export const REAL_CLIENTS: RealClient[] = [
  {
    // usage 951,005 → auto compact_boundary (postTokens 2,598) → a fresh turn at the same usage
    version: '2.1.328',
    dir: join(ROOT, 'test', 'fixtures', 'claude-code-2.1.328'),
    autoCompact: { tokens: 951_005, source: 'usage' },
    manualCompact: { tokens: 2_595, source: 'compaction' },
    statusAfterTurn: {
      sessionId: 'e5f74ece-445c-474e-817a-0891f9d160cb',
      usageTokens: 121_005,
      line: 'ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling',
    },
  },
  {
    // a Skill turn at 49,005, a Read turn at 951,005, a mid-run auto compact_boundary (preTokens 951,030,
    // postTokens 2,895), then a fresh turn at 3,505 (5 + 3,000 cache read + 500 cache creation)
    version: '2.1.331',
    dir: join(ROOT, 'test', 'fixtures', 'claude-code-2.1.331'),
    autoCompact: { tokens: 3_505, source: 'usage' },
    manualCompact: { tokens: 2_647, source: 'compaction' },
    statusAfterTurn: {
      sessionId: '4691732a-267d-4fe1-b842-d348d87a0a7c',
      usageTokens: 50_005,
      line: 'ctx 5% ▕█░░░│░░░░░░▏ 50,005/1,000,000 · 349,995 to the 40% ceiling',
    },
  },
  {
    // the same runs as 2.1.331, without other hooks: a Skill turn at 49,005, a Read turn at 951,005, a mid-run auto
    // compact_boundary (preTokens 951,015, postTokens 2,874), then a fresh turn at 3,505; /compact leaves postTokens 2,634
    version: '2.1.332',
    dir: join(ROOT, 'test', 'fixtures', 'claude-code-2.1.332'),
    autoCompact: { tokens: 3_505, source: 'usage' },
    manualCompact: { tokens: 2_634, source: 'compaction' },
    statusAfterTurn: {
      sessionId: 'c5c4fa24-91d6-4b6c-82db-d3e1fa479724',
      usageTokens: 50_005,
      line: 'ctx 5% ▕█░░░│░░░░░░▏ 50,005/1,000,000 · 349,995 to the 40% ceiling',
    },
  },
];

/** For describe.each / it.each with the version in the title: `describe.each(EACH_CLIENT)('… %s …', (_version, client) => …)`. */
export const EACH_CLIENT = REAL_CLIENTS.map((client) => [client.version, client] as const);

/** Every recorded version is in the table: a fixture directory nobody reads would prove nothing. */
export function recordedVersions(): string[] {
  const fixtures = join(ROOT, 'test', 'fixtures');
  return existsSync(fixtures)
    ? readdirSync(fixtures)
        .filter((name) => name.startsWith('claude-code-'))
        .map((name) => name.slice('claude-code-'.length))
        .sort()
    : [];
}
