/** The hook launcher's caches: only in a private state directory; V8's own only where Node has one; ours anywhere. */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  utimesSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { bundledServices } from '../../src/hooks/bundled-services.js';
import { launcherStateDir } from '../../src/hooks/launch.js';
import { type CompileCacheModule, enableCompileCache } from '../../src/hooks/node-compile-cache.js';
import { loadBundle, OTHER_V8_CACHES } from '../../src/io/code-cache-write.js';
import { forgetRunShape } from '../../src/io/run-shape.js';

const root = mkdtempSync(join(tmpdir(), 'cc-launch-'));

function dirWithMode(parent: string, name: string, mode = 0o700): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode);
  return dir;
}

describe('launcherStateDir: where the launcher may keep code', () => {
  it('$XDG_STATE_HOME/context-ceiling, else ~/.local/state/context-ceiling', () => {
    const xdg = join(root, 'xdg');
    const fromXdg = dirWithMode(xdg, 'context-ceiling');
    expect(launcherStateDir({ XDG_STATE_HOME: xdg, HOME: root })).toBe(fromXdg);
    const home = join(root, 'home');
    const fromHome = dirWithMode(join(home, '.local', 'state'), 'context-ceiling');
    expect(launcherStateDir({ HOME: home })).toBe(fromHome);
    expect(launcherStateDir({ XDG_STATE_HOME: 'relative/xdg', HOME: home })).toBe(fromHome);
  });

  it("never one DEV_TEAM_CONTEXT_STATE_DIR names: a project's settings may have supplied it", () => {
    const state = dirWithMode(root, 'state-env');
    const home = join(root, 'home-stated');
    dirWithMode(join(home, '.local', 'state'), 'context-ceiling');
    expect(launcherStateDir({ DEV_TEAM_CONTEXT_STATE_DIR: state, HOME: home })).toBeUndefined();
    expect(launcherStateDir({ DEV_TEAM_CONTEXT_STATE_DIR: 'relative/state', HOME: home })).toBeUndefined();
  });

  it('none where the folder cannot be trusted: missing, open to others (even only to read), or a symlink', () => {
    const at = (name: string) => ({ XDG_STATE_HOME: join(root, name), HOME: root });
    expect(launcherStateDir(at('missing'))).toBeUndefined();
    dirWithMode(join(root, 'xdg-open'), 'context-ceiling', 0o777);
    expect(launcherStateDir(at('xdg-open'))).toBeUndefined();
    dirWithMode(join(root, 'xdg-readable'), 'context-ceiling', 0o755);
    expect(launcherStateDir(at('xdg-readable'))).toBeUndefined();
    mkdirSync(join(root, 'xdg-link'));
    symlinkSync(dirWithMode(root, 'state-target'), join(root, 'xdg-link', 'context-ceiling'));
    expect(launcherStateDir(at('xdg-link'))).toBeUndefined();
  });
});

describe("enableCompileCache: Node's own cache, for what the hook require()s", () => {
  it('turned on in <state>/compile-cache where Node has module.enableCompileCache', () => {
    const dirs: string[] = [];
    const state = dirWithMode(root, 'state-node22');
    expect(enableCompileCache(state, { enableCompileCache: (dir: string) => dirs.push(dir) })).toBe(join(state, 'compile-cache'));
    expect(dirs).toEqual([join(state, 'compile-cache')]);
  });

  it('nothing on a Node without it (Node 20, Bun), and a failure is no cache', () => {
    expect(enableCompileCache(root, {})).toBeUndefined();
    const failing: CompileCacheModule = {
      enableCompileCache: () => {
        throw new Error('EACCES');
      },
    };
    expect(enableCompileCache(root, failing)).toBeUndefined();
  });

  it('turned on by the first policy file a hook parses, before policy-parse.cjs loads, and never on a run without one', () => {
    const state = dirWithMode(root, 'state-policy');
    const asked: string[] = [];
    const services = bundledServices(join(import.meta.dirname, '..', '..', 'plugin', 'dist'), state, (dir) => asked.push(dir));
    expect(asked).toEqual([]); // the services of a run that reads no policy file: no cache turned on
    const parsed = services.parsePolicy('{"ceilingPct": 30}', 'policy.json');
    expect(parsed).toMatchObject({ kind: 'ok' });
    services.parsePolicy('{}', 'other.json');
    expect(asked).toEqual([state]);
    const withoutState = bundledServices(join(import.meta.dirname, '..', '..', 'plugin', 'dist'), undefined, (dir) => asked.push(dir));
    withoutState.parsePolicy('{}', 'policy.json');
    expect(asked).toEqual([state]);
  });
});

describe('loadBundle: a CommonJS bundle with our V8 code cache', () => {
  // The kind a cache is kept for carries this process's run-shape marks: tests before this one (one process runs many
  // test files) may have set some.
  beforeEach(forgetRunShape);
  const req = createRequire(import.meta.url);
  const bundles = dirWithMode(root, 'bundles', 0o755);
  const bundle = (name: string, body: string) => {
    writeFileSync(join(bundles, name), body);
    return name;
  };
  const SOURCE = "const { join } = require('node:path'); exports.answer = (x) => join('a', String(x * 2)); exports.dir = __dirname;";

  it('runs the bundle, writes its cache (0600) after the run, and compiles from it the next time', () => {
    const file = bundle('one.cjs', SOURCE);
    const cache = join(dirWithMode(root, 'state-cache'), 'code-cache');
    const first = loadBundle(bundles, file, cache, req);
    expect((first.exports as { answer: (x: number) => string }).answer(21)).toBe(join('a', '42'));
    expect((first.exports as { dir: string }).dir).toBe(join(root, 'bundles'));
    expect(first.fromCache).toBe(false);
    first.saveCache('allow');
    const [written] = readdirSync(cache);
    const { size, mtimeMs, ino } = statSync(join(bundles, file));
    expect(written).toBe(`one.cjs.${size}.${Math.trunc(mtimeMs)}.${ino}.${process.versions.v8}.v8k`); // this bundle, this V8
    expect(statSync(join(cache, written!)).mode & 0o777).toBe(0o600);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    const second = loadBundle(bundles, file, cache, req);
    expect(second.fromCache).toBe(true);
    expect((second.exports as { answer: (x: number) => string }).answer(1)).toBe(join('a', '2'));
  });

  it('a changed bundle of the same length is compiled afresh and replaces the old cache', () => {
    const file = bundle('two.cjs', SOURCE);
    const cache = join(dirWithMode(root, 'state-change'), 'code-cache');
    loadBundle(bundles, file, cache, req).saveCache('allow');
    const before = readdirSync(cache);
    writeFileSync(join(bundles, `${file}.new`), SOURCE.replace('x * 2', 'x * 3'));
    // a new file (a rebuild or a reinstall writes one): same length, new identity
    renameSync(join(bundles, `${file}.new`), join(bundles, file));
    const changed = loadBundle(bundles, file, cache, req);
    expect(changed.fromCache).toBe(false);
    expect((changed.exports as { answer: (x: number) => string }).answer(1)).toBe(join('a', '3'));
    changed.saveCache('allow');
    expect(readdirSync(cache)).toHaveLength(1);
    expect(readdirSync(cache)).not.toEqual(before);
  });

  it('a run of a kind the cache does not hold writes it again, holding both; a kind it holds writes nothing', () => {
    // `warn` calls a function the allow run never did: compiled lazily, it is in the cache only once a warn run wrote it.
    const file = bundle(
      'kinds.cjs',
      `${SOURCE} exports.warn = () => { const parts = []; for (let i = 0; i < 40; i++) parts.push(String(i * 3)); return parts.join(',').length; };`,
    );
    const cache = join(dirWithMode(root, 'state-kinds'), 'code-cache');
    const cacheFile = () => join(cache, readdirSync(cache)[0]!);
    const header = () => {
      const bytes = readFileSync(cacheFile());
      return bytes.subarray(1, 1 + bytes[0]!).toString();
    };
    const allow = loadBundle(bundles, file, cache, req);
    (allow.exports as { answer: (x: number) => string }).answer(1);
    allow.saveCache('allow');
    expect(header()).toBe('allow');
    const allowSize = statSync(cacheFile()).size;

    const again = loadBundle(bundles, file, cache, req);
    expect(again.fromCache).toBe(true);
    const before = statSync(cacheFile());
    again.saveCache('allow');
    expect(statSync(cacheFile()).ino).toBe(before.ino); // not written again

    const warn = loadBundle(bundles, file, cache, req);
    expect(warn.fromCache).toBe(true);
    (warn.exports as { warn: () => number }).warn();
    warn.saveCache('warn');
    expect(header()).toBe('allow,warn');
    expect(statSync(cacheFile()).size).toBeGreaterThan(allowSize); // the warn run's function is in it now
    const both = loadBundle(bundles, file, cache, req);
    expect(both.fromCache).toBe(true);
    const written = statSync(cacheFile()).ino;
    both.saveCache('warn');
    both.saveCache('allow');
    expect(statSync(cacheFile()).ino).toBe(written);
  });

  it('a kind that is no word, or one past a full header, writes nothing', () => {
    const file = bundle('bounded.cjs', SOURCE);
    const cache = join(dirWithMode(root, 'state-bounded'), 'code-cache');
    loadBundle(bundles, file, cache, req).saveCache('Not A Word');
    expect(existsSync(cache)).toBe(false);
    const kinds = Array.from({ length: 40 }, (_, i) => `kind-${String.fromCharCode(97 + (i % 26))}${'x'.repeat(i)}`);
    for (const kind of kinds) loadBundle(bundles, file, cache, req).saveCache(kind);
    const bytes = readFileSync(join(cache, readdirSync(cache)[0]!));
    const held = bytes
      .subarray(1, 1 + bytes[0]!)
      .toString()
      .split(',');
    expect(held).toEqual(kinds.slice(0, held.length)); // in order, and it stopped before the header overflowed
    expect(held.length).toBeLessThan(kinds.length);
    expect(loadBundle(bundles, file, cache, req).fromCache).toBe(true);
  });

  it('the caches an earlier version wrote (.v8, and .v8k without a V8) are replaced by the first one written', () => {
    const file = bundle('earlier.cjs', SOURCE);
    const cache = join(dirWithMode(root, 'state-earlier'), 'code-cache');
    mkdirSync(cache, { mode: 0o700 });
    const { size, mtimeMs, ino } = statSync(join(bundles, file));
    const thisBundle = `earlier.cjs.${size}.${Math.trunc(mtimeMs)}.${ino}`;
    writeFileSync(join(cache, 'earlier.cjs.1.2.3.v8'), 'old');
    writeFileSync(join(cache, `${thisBundle}.v8k`), 'old');
    loadBundle(bundles, file, cache, req).saveCache('allow');
    expect(readdirSync(cache)).toEqual([`${thisBundle}.${process.versions.v8}.v8k`]);
  });

  it("another V8's cache of the same bundle is kept (two Nodes in turn do not rewrite each other's); an earlier bundle's goes", () => {
    const file = bundle('two-nodes.cjs', SOURCE);
    const cache = join(dirWithMode(root, 'state-two-nodes'), 'code-cache');
    mkdirSync(cache, { mode: 0o700 });
    const { size, mtimeMs, ino } = statSync(join(bundles, file));
    const thisBundle = `two-nodes.cjs.${size}.${Math.trunc(mtimeMs)}.${ino}`;
    const otherV8 = `${thisBundle}.0.0.0.1-other.v8k`;
    const earlierBundle = `two-nodes.cjs.1.2.3.${process.versions.v8}.v8k`;
    const otherName = `two-nodes-b.cjs.${size}.${Math.trunc(mtimeMs)}.${ino}.0.0.0.1-other.v8k`;
    for (const name of [otherV8, earlierBundle, otherName]) writeFileSync(join(cache, name), 'another');
    const first = loadBundle(bundles, file, cache, req);
    expect(first.fromCache).toBe(false);
    first.saveCache('allow');
    expect(readdirSync(cache).sort()).toEqual([otherName, otherV8, `${thisBundle}.${process.versions.v8}.v8k`].sort());
    expect(readFileSync(join(cache, otherV8), 'utf8')).toBe('another');
    expect(loadBundle(bundles, file, cache, req).fromCache).toBe(true);
  });

  it('of the caches other V8s wrote for the bundle, the two newest are kept: an upgraded Node leaves no trail', () => {
    expect(OTHER_V8_CACHES).toBe(2);
    const file = bundle('upgrades.cjs', SOURCE);
    const cache = join(dirWithMode(root, 'state-upgrades'), 'code-cache');
    mkdirSync(cache, { mode: 0o700 });
    const { size, mtimeMs, ino } = statSync(join(bundles, file));
    const thisBundle = `upgrades.cjs.${size}.${Math.trunc(mtimeMs)}.${ino}`;
    // Four Nodes before this one, each writing its cache a day after the one before.
    const olderV8s = ['10.1.0.1-node.1', '11.3.0.2-node.2', '12.4.0.3-node.3', '13.6.0.4-node.4'].map((v8, day) => {
      const name = `${thisBundle}.${v8}.v8k`;
      writeFileSync(join(cache, name), v8);
      utimesSync(join(cache, name), 1_700_000_000 + day * 86_400, 1_700_000_000 + day * 86_400);
      return name;
    });
    loadBundle(bundles, file, cache, req).saveCache('allow');
    expect(readdirSync(cache).sort()).toEqual([...olderV8s.slice(2), `${thisBundle}.${process.versions.v8}.v8k`].sort());
  });

  it('no cache is written into a folder open to others, and without a folder nothing is cached', () => {
    const file = bundle('four.cjs', SOURCE);
    const open = dirWithMode(join(root, 'state-open-cache'), 'code-cache', 0o777);
    const run = loadBundle(bundles, file, open, req);
    run.saveCache('allow');
    expect(readdirSync(open)).toEqual([]);
    const none = loadBundle(bundles, file, undefined, req);
    none.saveCache('allow');
    expect(none.fromCache).toBe(false);
    expect(existsSync(join(root, 'code-cache'))).toBe(false);
  });
});
