/**
 * The layout's rules, checked on the source: no import circles (type imports included), nothing imports a
 * layer above its own, and the pure core imports no I/O. docs/architecture.md describes the layers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/sandbox.js';

const SRC = join(ROOT, 'src');

/** Lowest first: a module may import its own layer and those below. Top-level files are the entries. */
const LAYERS = ['core', 'samples', 'io', 'events', 'runtime', 'window', 'checkpoints', 'hooks', 'sdk', 'cli', '(entry)'] as const;

/** What core may import from outside the package: validation only, never I/O. */
const CORE_PACKAGES = new Set(['zod/mini']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every specifier a file imports or re-exports, static or dynamic, type-only included. */
function importsOf(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm),
    ...source.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ];
  return specifiers.map((match) => match[1]!);
}

const FILES = sourceFiles(SRC).map((path) => relative(SRC, path));
const GRAPH = new Map(
  FILES.map((file) => {
    const specs = importsOf(readFileSync(join(SRC, file), 'utf8'));
    // Data files (the presets' JSON) are not modules of the graph.
    const local = specs
      .filter((spec) => spec.startsWith('.') && !spec.endsWith('.json'))
      .map((spec) => relative(SRC, resolve(SRC, dirname(file), spec.replace(/\.js$/, '.ts'))));
    return [file, { local, external: specs.filter((spec) => !spec.startsWith('.')) }];
  }),
);

const layerOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : '(entry)');

/** Strongly connected components of more than one file (Tarjan), i.e. the import circles. */
function circles(graph: Map<string, { local: string[] }>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const dep of graph.get(file)?.local ?? []) {
      if (!graph.has(dep)) continue;
      if (!index.has(dep)) {
        visit(dep);
        low.set(file, Math.min(low.get(file)!, low.get(dep)!));
      } else if (onStack.has(dep)) low.set(file, Math.min(low.get(file)!, index.get(dep)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('architecture', () => {
  it('the scanner sees every kind of import (so the rules below can fail)', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "export type { D } from './d.js';",
      "import './side-effect.js';",
      "const e = await import('./e.js');",
      'import {\n  f,\n  type G,\n} from "nope"; // double quotes are not this codebase\'s',
      "import {\n  h,\n} from 'node:fs';",
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a.js', '../b.js', './c.js', './d.js', 'node:fs', './side-effect.js', './e.js']);
    expect(
      circles(
        new Map([
          ['x', { local: ['y'] }],
          ['y', { local: ['x'] }],
          ['z', { local: ['x'] }],
        ]),
      ),
    ).toEqual([['x', 'y']]);
  });

  it('every file resolves its local imports (the graph below is complete)', () => {
    const missing = [...GRAPH].flatMap(([file, { local }]) => local.filter((dep) => !GRAPH.has(dep)).map((dep) => `${file} → ${dep}`));
    expect(missing).toEqual([]);
  });

  it('no import circles, type imports included', () => {
    expect(circles(GRAPH)).toEqual([]);
  });

  it('nothing imports a layer above its own', () => {
    const upward = [...GRAPH].flatMap(([file, { local }]) =>
      local
        .filter((dep) => LAYERS.indexOf(layerOf(dep) as never) > LAYERS.indexOf(layerOf(file) as never))
        .map((dep) => `${file} → ${dep}`),
    );
    expect(FILES.every((file) => LAYERS.includes(layerOf(file) as never))).toBe(true);
    expect(upward).toEqual([]);
  });

  it('the pure core imports no I/O: no node: module, no package but validation', () => {
    const impure = [...GRAPH]
      .filter(([file]) => layerOf(file) === 'core' || layerOf(file) === 'samples')
      .flatMap(([file, { external }]) => external.filter((spec) => !CORE_PACKAGES.has(spec)).map((spec) => `${file} → ${spec}`));
    expect(impure).toEqual([]);
  });
});
