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

/**
 * bench/HISTORY.md keeps what RESULTS.md no longer shows: a benchmark's earlier tables, oldest first, in a block of its
 * own (`<!-- history:<name>:begin -->`), under `heading` when the block is new. `markdown` is appended at the block's end.
 */
export function appendToHistory(path: string, name: string, heading: string, markdown: string): void {
  if (markdown.trim() === '') return;
  const begin = `<!-- history:${name}:begin -->`;
  const end = `<!-- history:${name}:end -->`;
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark history\n';
  const at = current.indexOf(end);
  const next =
    at === -1
      ? `${current.trimEnd()}\n\n${heading.trim()}\n\n${begin}\n${markdown.trim()}\n${end}\n`
      : `${current.slice(0, at).trimEnd()}\n\n${markdown.trim()}\n${current.slice(at)}`;
  writeFileSync(path, next);
}
