/** The CLI's sentences live in src/cli/messages.ts: a heuristic scan keeps new ones from being written inline. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliMessage } from '../../src/cli/messages.js';
import { STATE_THE_WINDOW_ADVICE } from '../../src/core/guard-text.js';
import { ROOT } from '../helpers/sandbox.js';

/**
 * Lines whose literals are not sentences said to a user: command summaries (--help tables), the demo's
 * scenario titles and fixture text, the errno phrase table, the demo's column labels.
 */
const NOT_SENTENCES = [
  /^\s*summary: /,
  /^\s*\['[^']+', '/,
  /^\s*\{ title: /,
  /^\s*title: ['"]/,
  /^\s*\.user\('/,
  /\baTranscript\(\)/,
  /\bdescription: '/,
  /^\s*[A-Z]+: '/,
  /\bwrap\(/,
];

/** Single-line string literals that read like a sentence: four words, or a capitalised phrase ending in a full stop. */
function inlineSentences(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  // Over the whole file, so an apostrophe inside a multi-line help text does not open a literal.
  for (const match of code.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)) {
    const literal = match[0];
    if (literal.includes('\n')) continue; // usage and --help blocks
    const line = code.slice(code.lastIndexOf('\n', match.index) + 1, code.indexOf('\n', match.index) >>> 0);
    if (NOT_SENTENCES.some((pattern) => pattern.test(line))) continue;
    const text = literal.slice(1, -1).replace(/\$\{[^}]*\}/g, 'X');
    if (/\b[A-Za-z]+ [a-z]+ [a-z]+ [a-z]+\b/.test(text) || /^[A-Z][a-z]+ [^.]*\.(\\n)?$/.test(text)) found.push(literal);
  }
  return found;
}

describe('CLI wording', () => {
  it('the scan finds inline sentences (it can fail)', () => {
    expect(inlineSentences("io.out('Nothing to acknowledge.\\n');")).toHaveLength(1);
    expect(inlineSentences('throw new CliError(`cannot write the marker beside ${path}`);')).toHaveLength(1);
    expect(inlineSentences("io.out(cliMessage('checkpoints.none'));\n// a comment says what it likes here")).toEqual([]);
  });

  it('no command file writes a sentence inline: each comes from src/cli/messages.ts (or a messages-<topic>.ts) by id', () => {
    const dir = join(ROOT, 'src/cli');
    const inline = readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !/^messages(-[a-z-]+)?\.ts$/.test(name))
      .flatMap((name) => inlineSentences(readFileSync(join(dir, name), 'utf8')).map((literal) => `${name}: ${literal}`));
    expect(inline).toEqual([]);
  });

  it('advice the guard also gives is the same text, not a rewrite', () => {
    expect(cliMessage('doctor.window-assumed-fix')).toBe(STATE_THE_WINDOW_ADVICE);
  });
});
