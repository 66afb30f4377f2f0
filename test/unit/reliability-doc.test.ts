/** docs/reliability.md cannot drift from what is run: every cited test exists, every hardening test is cited, every cited benchmark passes. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/sandbox.js';

const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8');
const rows = doc.split('\n').filter((line) => /^\| [PCFSB]\d+[a-z]? \|/.test(line));

/** `file` › "name", "name" pairs cited in a row. */
function citations(row: string): Array<{ file: string; names: string[] }> {
  return [...row.matchAll(/`(test\/[^`]+\.test\.ts)` › ((?:"[^"]+"(?:, )?)+)/g)].map((m) => ({
    file: m[1]!,
    names: [...m[2]!.matchAll(/"([^"]+)"/g)].map((n) => n[1]!),
  }));
}

/** Test titles as written in the source: it('…'), it.each(…)('…'), it.skipIf(…)('…'). */
function titles(source: string): string[] {
  return [...source.matchAll(/\bit(?:\.(?:each|skipIf)\([\s\S]*?\))?\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)].map((m) =>
    m[2]!.replace(/\\(['"])/g, '$1'),
  );
}

describe('docs/reliability.md', () => {
  it('has rows for properties, concurrency, faults, security and bounded resources', () => {
    for (const prefix of ['P', 'C', 'F', 'S', 'B']) expect(rows.some((row) => row.startsWith(`| ${prefix}1 |`))).toBe(true);
  });

  it('every test it cites exists, under that name', () => {
    const cited = rows.flatMap(citations);
    expect(cited.length).toBeGreaterThan(20);
    for (const { file, names } of cited) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      for (const name of names) expect(titles(source), `${file} has no test "${name}"`).toContain(name);
    }
  });

  it('every hardening test is cited', () => {
    const cited = new Set(rows.flatMap(citations).flatMap(({ file, names }) => names.map((name) => `${file}::${name}`)));
    const dir = join(ROOT, 'test', 'hardening');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.test.ts'))) {
      for (const title of titles(readFileSync(join(dir, file), 'utf8')))
        expect(cited, `test/hardening/${file}: "${title}" is not in docs/reliability.md`).toContain(`test/hardening/${file}::${title}`);
    }
  });

  const section = (results: string, name: string) => {
    const begin = results.indexOf(`<!-- ${name}:begin -->`);
    expect(begin, `bench/RESULTS.md has no ${name} section`).toBeGreaterThan(-1);
    return results.slice(begin, results.indexOf(`<!-- ${name}:end -->`));
  };

  it('every benchmark it cites has its section in bench/RESULTS.md, with every target met', () => {
    const results = readFileSync(join(ROOT, 'bench', 'RESULTS.md'), 'utf8');
    for (const name of ['bounded', 'replay']) {
      expect(section(results, name)).not.toContain('✗');
      expect(section(results, name)).toContain('✓');
    }
    // bench:bounded reports a wrong answer instead of its figures (no ✗ then): none may be committed.
    expect(section(results, 'bounded')).not.toMatch(/\bwrong\b/i);
  });

  it('the hook paths section: every verdict right and every path within memory; each path over the time target is named', () => {
    const guard = section(readFileSync(join(ROOT, 'bench', 'RESULTS.md'), 'utf8'), 'guard');
    expect(guard).not.toContain('wrong verdict');
    const cellsOf = (line: string) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
    // The columns by name: transcript, path, verdict, node -e 0 ms, then per runtime `<label> ms`, `<label> × (its) bare`,
    // for each Node `<label> instr × its bare`, and `<label> − (its) bare MB`.
    const head = cellsOf(guard.split('\n').find((line) => line.startsWith('| transcript |')) ?? '');
    const columns = (pattern: RegExp) =>
      head.flatMap((name, index) => (pattern.test(name) ? [{ index, label: name.replace(pattern, '') }] : []));
    const times = columns(/ × (its )?bare$/).filter((column) => !column.label.endsWith(' instr'));
    const counted = columns(/ instr × its bare$/);
    const memory = columns(/ − (its )?bare MB$/);
    expect(times.map((column) => column.label)).toEqual(expect.arrayContaining(['bun']));
    expect(times.length).toBeGreaterThanOrEqual(2); // Node and Bun at least
    expect(counted.length).toBeGreaterThanOrEqual(1);
    // The first table (every runtime); the older Node lines' own table, by instructions only, follows its heading.
    const [main = '', older] = guard.split('\n#### The older Node lines');
    const rows = main.split('\n').filter((line) => /^\| 1(KB|GB) \|/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(20); // every path, at 1 KB and 1 GB
    for (const row of rows) {
      const cells = cellsOf(row);
      const [size, path] = cells;
      for (const { index } of memory) expect(cells[index], row).toMatch(/✓$/);
      for (const { index, label } of times) {
        expect(cells[index], row).toMatch(/^(\*\*[\d.]+×\*\* [✓✗]|–)$/);
        if (cells[index]?.endsWith('✗'))
          expect(guard, row).toMatch(new RegExp(`By wall time, not within [\\d.]+× yet: .*${size} ${path} \\(${label} `));
      }
      for (const { index, label } of counted) {
        expect(cells[index], row).toMatch(/^([\d.]+× [✓✗]|–)$/);
        if (cells[index]?.endsWith('✗'))
          expect(guard, row).toMatch(new RegExp(`By instructions, not within [\\d.]+× yet: .*${size} ${path} \\(${label} `));
      }
    }
    if (older === undefined) return; // a run without valgrind or BENCH_NODE_LINES=off has no such table
    const olderHead = cellsOf(older.split('\n').find((line) => line.startsWith('| transcript |')) ?? '');
    const lines = olderHead.flatMap((name, index) =>
      / instr × its bare$/.test(name) ? [{ index, label: name.replace(/ instr × its bare$/, '') }] : [],
    );
    expect(lines.length).toBeGreaterThanOrEqual(1);
    const olderRows = older.split('\n').filter((line) => /^\| 1(KB|GB) \|/.test(line));
    expect(olderRows.length).toBe(rows.length); // every path of the first table
    for (const row of olderRows) {
      const cells = cellsOf(row);
      const [size, path] = cells;
      for (const { index, label } of lines) {
        expect(cells[index], row).toMatch(/^([\d.]+× [✓✗]|–)$/);
        if (cells[index]?.endsWith('✗'))
          expect(older, row).toMatch(new RegExp(`By instructions on these lines, not within [\\d.]+× yet: .*${size} ${path} \\(${label} `));
      }
    }
  });
});
