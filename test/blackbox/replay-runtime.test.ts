/**
 * What runs `replay`: the Node CLI hands the whole run to the `bun` on the PATH (the floor's or newer) before it
 * loads the replay code, and runs it itself with `--runtime node`, with no Bun, with an old Bun or one that cannot
 * start. `bun` stand-ins on the PATH log their call, and a preload logs when Bun writes the answer (the CLI writes
 * with fs.writeSync: cli/main.ts), so each test
 * says which runtime produced the output; the answer is the same bytes whichever did.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { findOnPath } from '../../src/io/on-path.js';
import { notPassed, runSuites, testsWith } from '../helpers/hook-suites.js';
import { CLI_BIN, FIXTURES, olderNodePreload, ROOT, runCli, useProjectSandbox } from '../helpers/sandbox.js';
import { bunOutreads } from '../../src/cli/replay-runtime.js';
import { findLtsNode, NODE_LTS_VERSION } from '../../bench/lts-node.js';
import { execa } from 'execa';

const { sandbox } = useProjectSandbox();
/** The devDependency's Bun (package.json): the real runtime the stand-ins hand over to. */
const REAL_BUN = join(ROOT, 'node_modules', '.bin', 'bun');
const HAIKU = 'claude-haiku-4-5';

type StandIn = 'bun' | 'old-bun' | 'broken-bun' | 'node-as-bun';

/**
 * A folder holding a `bun` stand-in that logs its name, then runs: the real Bun (`bun`), the real Bun reporting a
 * version below the floor (`old-bun`: a preload sets process.versions.bun, as install-runtime.test.ts does), a
 * Bun that dies before it runs anything (`broken-bun`), or Node under Bun's name (`node-as-bun`). Under either
 * Bun a preload logs the first write to stdout, with the version the run reports.
 */
function bunOnPath(kind: StandIn): { path: string; log: () => string } {
  const log = join(sandbox().root, 'runtimes.log');
  const bin = dirname(sandbox().write(`${kind}/.keep`, ''));
  const wrote = sandbox().write(
    'bun-wrote.cjs',
    `const fs = require('node:fs');
const writeSync = fs.writeSync;
fs.writeSync = function (fd, ...rest) {
  if (fd === 1) {
    fs.writeSync = writeSync;
    fs.appendFileSync(${JSON.stringify(log)}, 'stdout written by Bun ' + process.versions.bun + '\\n');
  }
  return writeSync.call(this, fd, ...rest);
};
`,
  );
  const older = sandbox().write('old-bun.cjs', "process.versions.bun = '1.1.0';\n");
  const run = {
    bun: `"${REAL_BUN}" --preload "${wrote}"`,
    'old-bun': `"${REAL_BUN}" --preload "${older}" --preload "${wrote}"`,
    'broken-bun': 'echo "bun: crashed" >&2; exit 3; :',
    'node-as-bun': `"${process.execPath}"`,
  }[kind];
  writeFileSync(join(bin, 'bun'), `#!/bin/sh\necho ${kind} >> "${log}"\nexec ${run} "$@"\n`);
  chmodSync(join(bin, 'bun'), 0o755);
  return { path: `${bin}:/usr/bin:/bin`, log: () => (existsSync(log) ? readFileSync(log, 'utf8') : '') };
}

/** Replay's JSON with the one field that differs run to run (its own timing) blanked; every other byte kept. */
const timeless = (stdout: string) => stdout.replace(/"seconds": [0-9.e-]+/, '"seconds": 0');

/** What a run says on stderr besides its progress lines (one per tenth read). */
const besidesProgress = (stderr: string) => stderr.replace(/^replay: \d+% \(.*\)\n/gm, '');

/** The environment of a run under a Node older than 22, the one that hands replay to Bun (olderNodePreload). */
function olderNode(PATH: string): Record<string, string> {
  return { PATH, NODE_OPTIONS: olderNodePreload(sandbox()) };
}

/** A replay that must succeed: exit 0, and nothing on stderr but progress. */
async function replayOk(args: string[], PATH: string) {
  const run = await runCli(sandbox(), args, olderNode(PATH));
  expect(run.exitCode, run.stderr).toBe(0);
  expect(besidesProgress(run.stderr)).toBe('');
  return run;
}

let corpus: string[];
beforeEach(() => {
  // Built sessions (a Skill and an Agent call, a compaction, a corrupt line) beside real recordings.
  const built = dirname(
    sandbox().write(
      'corpus/-home-dev-app/s1.jsonl',
      aTranscript('s1')
        .modelAttachment(HAIKU)
        .assistant({ model: HAIKU, cacheRead: 50_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } })
        .toolResult(5_000)
        .assistant({ model: HAIKU, cacheRead: 150_000 })
        .compactBoundary({ postTokens: 3_000 })
        .assistant({ model: HAIKU, cacheRead: 90_000, toolUse: { name: 'Agent', input: { subagent_type: 'Explore' } } })
        .raw('{"type":"assistant","message": {broken')
        .toString(),
    ),
  );
  sandbox().write('corpus/-home-dev-app/s2.jsonl', aTranscript('s2').assistant({ cacheRead: 120_000 }).toString());
  corpus = [built, FIXTURES];
});

/** The answer Node gives with no Bun anywhere on the PATH: what every other run must print, byte for byte. */
async function nodeAnswer(extra: string[] = []) {
  const run = await replayOk(['replay', '--json', ...extra, ...corpus], '/usr/bin:/bin');
  expect(JSON.parse(run.stdout).sessions).toBe(4);
  return timeless(run.stdout);
}

describe('what runs replay', () => {
  it('by default, under a Node older than 22, Bun where bun is on the PATH: Bun writes the answer, the same bytes as Node', async () => {
    const bun = bunOnPath('bun');
    const run = await replayOk(['replay', '--json', ...corpus], bun.path);
    expect(bun.log()).toBe('bun\nstdout written by Bun 1.4.4\n');
    expect(timeless(run.stdout)).toBe(await nodeAnswer());
  });

  it('the table too, and --no-color before the command reaches the run handed over', async () => {
    const bun = bunOnPath('bun');
    const run = await replayOk(['--no-color', 'replay', ...corpus], bun.path);
    expect(bun.log()).toBe('bun\nstdout written by Bun 1.4.4\n');
    const node = await replayOk(['--no-color', 'replay', ...corpus], '/usr/bin:/bin');
    const untimed = (text: string) => text.replace(/ in [0-9.]+ s \([^)]*\)/, ' in ? s');
    expect(untimed(run.stdout)).toBe(untimed(node.stdout));
    expect(run.stdout).toMatch(/^Replayed 4 sessions/);
  });

  it.each([[['--runtime', 'node']], [['--runtime=node']]])('%j runs Node, whatever Bun is on the PATH', async (flag) => {
    const bun = bunOnPath('bun');
    const run = await replayOk(['replay', ...flag, '--json', ...corpus], bun.path);
    expect(bun.log()).toBe('');
    expect(timeless(run.stdout)).toBe(await nodeAnswer());
  });

  it(`under Node ${NODE_LTS_VERSION} (the current LTS line), which reads as fast as Bun, Node runs it: no Bun is started`, async () => {
    const node = findLtsNode(join(ROOT, 'bench', '.data'));
    expect(node, `node-${process.platform}-${process.arch}@${NODE_LTS_VERSION} could not be fetched from the npm registry`).toBeDefined();
    expect(bunOutreads(NODE_LTS_VERSION)).toBe(false);
    const bun = bunOnPath('bun');
    const run = await execa(node!, [CLI_BIN, 'replay', '--json', ...corpus], {
      env: sandbox().env({ PATH: bun.path }),
      extendEnv: false,
      cwd: sandbox().project,
      reject: false,
      stripFinalNewline: false,
      stdin: 'ignore',
    });
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(bun.log()).toBe('');
    expect(timeless(String(run.stdout))).toBe(await nodeAnswer());
  });

  it('--runtime auto is the default: Bun', async () => {
    const bun = bunOnPath('bun');
    const run = await replayOk(['replay', '--runtime', 'auto', '--json', ...corpus], bun.path);
    expect(bun.log()).toBe('bun\nstdout written by Bun 1.4.4\n');
    expect(timeless(run.stdout)).toBe(await nodeAnswer());
  });

  it('a Bun older than the floor is started, takes nothing, and Node runs the replay: no word of it in the output', async () => {
    const bun = bunOnPath('old-bun');
    const run = await replayOk(['replay', '--json', ...corpus], bun.path);
    expect(bun.log()).toBe('old-bun\n');
    expect(timeless(run.stdout)).toBe(await nodeAnswer());
  });

  it('a Bun that cannot start leaves the run to Node: exit 0 and the answer, after what that Bun said', async () => {
    const bun = bunOnPath('broken-bun');
    const run = await runCli(sandbox(), ['replay', '--json', ...corpus], olderNode(bun.path));
    expect(bun.log()).toBe('broken-bun\n');
    expect(run.exitCode).toBe(0);
    expect(besidesProgress(run.stderr)).toBe('bun: crashed\n');
    expect(timeless(run.stdout)).toBe(await nodeAnswer());
  });

  it('a run handed over never hands over again, even to a `bun` that is Node', async () => {
    const bun = bunOnPath('node-as-bun');
    const run = await replayOk(['replay', '--json', ...corpus], bun.path);
    expect(bun.log()).toBe('node-as-bun\n');
    expect(timeless(run.stdout)).toBe(await nodeAnswer());
  });

  it("the exit code and stderr of Bun's run are the command's: a usage error", async () => {
    const bun = bunOnPath('bun');
    const run = await runCli(sandbox(), ['replay', '--jobs', '0', ...corpus], olderNode(bun.path));
    expect(bun.log()).toBe('bun\n');
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(run.stderr).toMatch(/^context-ceiling: --jobs takes a whole number of threads from 1 to 64 \(got "0"\)\nUsage: /);
  });

  it('an unknown runtime is a usage error, from Node', async () => {
    const bun = bunOnPath('bun');
    const run = await runCli(sandbox(), ['replay', '--runtime', 'deno', ...corpus], olderNode(bun.path));
    expect(bun.log()).toBe('');
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(run.stderr).toMatch(/^context-ceiling: --runtime takes auto or node \(got "deno"\)\nUsage: /);
  });

  it("--help is Node's, and says what --runtime does", async () => {
    const bun = bunOnPath('bun');
    const run = await replayOk(['replay', '--help'], bun.path);
    expect(bun.log()).toBe('');
    expect(run.stdout).toContain(
      '--runtime R       what runs the replay: auto (the default: Bun where `bun`\n                    1.4.4 or newer',
    );
  });

  it('--jobs 2 under Bun: two worker threads, the same bytes as Node with two', async () => {
    const bun = bunOnPath('bun');
    const run = await replayOk(['replay', '--json', '--jobs', '2', ...corpus], bun.path);
    expect(bun.log()).toBe('bun\nstdout written by Bun 1.4.4\n');
    expect(JSON.parse(run.stdout).threads).toBe(2);
    expect(timeless(run.stdout)).toBe(await nodeAnswer(['--jobs', '2']));
  });
});

/** The replay suites, whose runs take whatever runtime the PATH they inherit gives replay. */
const REPLAY_SUITES = ['test/blackbox/replay.test.ts', 'test/blackbox/replay-guard.test.ts', 'test/blackbox/replay-html.test.ts'];
/** Fewer passing tests than this means the child run broke, not that it passed. */
const MIN_REPLAY_TESTS = 15;

describe('the replay suites with Bun on the PATH', () => {
  const work = mkdtempSync(join(tmpdir(), 'cc-replay-runtime-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  /** This PATH without any folder that holds a `bun` (`npm test` puts the pinned one on it). */
  const withoutBun = (process.env.PATH ?? '/usr/bin:/bin')
    .split(delimiter)
    .filter((dir) => dir !== '' && findOnPath('bun', dir) === undefined)
    .join(delimiter);

  // Handed over only from a Node older than 22 (the machine's 20 here); under a newer Node the suites' runs stay Node's.
  const handsOver = bunOutreads(process.versions.node);

  // Without a Bun on the PATH they run in this suite's own run (the sandbox's PATH has none): Node runs them there.
  it('every test passes with Bun on the PATH (each replay handed to it from an older Node)', () => {
    const bin = join(work, 'bin');
    const log = join(work, 'bun.log');
    mkdirSync(bin);
    writeFileSync(join(bin, 'bun'), `#!/bin/sh\necho run >> "${log}"\nexec "${REAL_BUN}" "$@"\n`);
    chmodSync(join(bin, 'bun'), 0o755);
    const underBun = runSuites(REPLAY_SUITES, { PATH: `${bin}${delimiter}${withoutBun}` }, join(work, 'bun.json'));
    expect(notPassed(underBun, true)).toEqual([]);
    expect(testsWith(underBun, 'passed').length).toBeGreaterThan(MIN_REPLAY_TESTS);
    const handedOver = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
    if (handsOver) expect(handedOver).toBeGreaterThan(MIN_REPLAY_TESTS);
    else expect(handedOver).toBe(0);
  }, 600_000);
});
