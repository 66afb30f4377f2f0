/** bench/RESULTS.md holds one section per benchmark; each run replaces only its own. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeSection(path: string, name: string, markdown: string): void {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${begin}\n${markdown.trim()}\n${end}`;
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
  const at = current.indexOf(begin);
  const next =
    at === -1 ? `${current.trimEnd()}\n\n${block}\n` : `${current.slice(0, at)}${block}${current.slice(current.indexOf(end) + end.length)}`;
  writeFileSync(path, next);
}
