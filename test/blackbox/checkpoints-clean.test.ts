/**
 * `checkpoints clean`: checkpoints go by age, by session or all, each with its markers and kept summary;
 * nothing that is not ours goes, whatever a repository plants beside them.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { runHook, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox, cli, cliOk } = useProjectSandbox();

const root = () => join(sandbox().project, '.claude', 'context-ceiling', 'checkpoints');
const dir = (session: string) => join(root(), session);
const normalise = (text: string) => text.split(sandbox().root).join('<root>');
const hook = (event: string, session: string, input: Record<string, unknown> = {}) => {
  const transcript = sandbox().write(`claude/${session}.jsonl`, aTranscript(session).assistant({ cacheRead: 150_000 }).toString());
  const payload = { session_id: session, transcript_path: transcript, cwd: sandbox().project, trigger: 'auto', ...input };
  return runHook(sandbox(), payload, { CLAUDE_PROJECT_DIR: sandbox().project }, 'hook', event);
};
const DAY = 24 * 60 * 60 * 1000;

/** Written `days` ago, by its own timestamp. */
function backdate(session: string, id: string, days: number): void {
  const file = join(dir(session), `${id}-checkpoint.json`);
  writeFileSync(
    file,
    JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), timestamp: new Date(Date.now() - days * DAY).toISOString() }),
  );
}

/** sess-old: cx-001 (acknowledged, with its kept summary and what-it-dropped marker) and cx-002, ten days old; sess-new: cx-001 today. */
async function twoSessions(): Promise<void> {
  await hook('pre-compact', 'sess-old');
  await hook('post-compact', 'sess-old', { hook_event_name: 'PostCompact', compact_summary: 'Summary: carry on.' });
  await hook('session-start', 'sess-old', { source: 'compact' });
  writeFileSync(join(dir('sess-old'), 'cx-001-summary.acknowledged'), '');
  await hook('pre-compact', 'sess-old');
  await hook('pre-compact', 'sess-new');
  backdate('sess-old', 'cx-001', 10);
  backdate('sess-old', 'cx-002', 9);
}

describe('checkpoints clean', () => {
  it('--older-than 7d --dry-run lists what would go and removes nothing; then the same for real', { tags: ['hook'] }, async () => {
    await twoSessions();
    const before = readdirSync(dir('sess-old')).sort();
    const dry = await cliOk(['checkpoints', 'clean', '--older-than', '7d', '--dry-run']);
    expect(normalise(dry.stdout)).toBe(
      'would remove sess-old/cx-001 (cx-001-checkpoint.acknowledged, cx-001-checkpoint.json, cx-001-summary.acknowledged, cx-001-summary.json)\n' +
        'would remove sess-old/cx-002 (cx-002-checkpoint.json)\n' +
        'would remove the session folder sess-old/ (empty by then)\n' +
        'context-ceiling: would remove 2 checkpoints (5 files) and 1 session folder from <root>/project/.claude/context-ceiling/checkpoints; nothing was removed (--dry-run)\n',
    );
    expect(readdirSync(dir('sess-old')).sort()).toEqual(before);
    const run = await cliOk(['checkpoints', 'clean', '--older-than', '7d']);
    expect(normalise(run.stdout)).toBe(
      normalise(dry.stdout)
        .replaceAll('would remove', 'removed')
        .replace('(empty by then)', '(empty)')
        .replace('; nothing was removed (--dry-run)', ''),
    );
    expect(existsSync(dir('sess-old'))).toBe(false);
    expect(readdirSync(dir('sess-new'))).toEqual(['cx-001-checkpoint.json']);
    expect(readdirSync(root()).sort()).toEqual(['.gitignore', 'sess-new']);
    expect(JSON.parse((await cliOk(['checkpoints', 'list', '--json'])).stdout).map((c: { id: string }) => c.id)).toEqual([
      'sess-new/cx-001',
    ]);
  });

  it('--session ID removes that session; --older-than with it only what is old there', { tags: ['hook'] }, async () => {
    await twoSessions();
    await cliOk(['checkpoints', 'clean', '--session', 'sess-old', '--older-than', '228h']);
    expect(readdirSync(dir('sess-old'))).toEqual(['cx-002-checkpoint.json']);
    await cliOk(['checkpoints', 'clean', '--session', 'sess-new']);
    expect(readdirSync(root()).sort()).toEqual(['.gitignore', 'sess-old']);
  });

  it('--all --json: every checkpoint, each with its files', { tags: ['hook'] }, async () => {
    await twoSessions();
    const run = await cliOk(['checkpoints', 'clean', '--all', '--json']);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ dryRun: false, root: root(), folders: [dir('sess-new'), dir('sess-old')], leftAlone: [] });
    expect(out.removed.map((r: { id: string; files: string[] }) => [r.id, r.files.length])).toEqual([
      ['sess-new/cx-001', 1],
      ['sess-old/cx-001', 4],
      ['sess-old/cx-002', 1],
    ]);
    expect(readdirSync(root())).toEqual(['.gitignore']);
    expect((await cliOk(['checkpoints', 'clean', '--all'])).stdout).toBe(`context-ceiling: nothing to clean in ${root()}\n`);
  });

  it('a corrupt checkpoint goes by its file time; an unfinished write only once an hour old', async () => {
    mkdirSync(dir('s'), { recursive: true });
    const old = (Date.now() - 10 * DAY) / 1000;
    for (const name of ['cx-001-checkpoint.json', '.cx-4242-lq2x0abc12.tmp', '.cx-001-summary.json.4242.lq2x0abc12.tmp']) {
      writeFileSync(join(dir('s'), name), '{"broken');
      utimesSync(join(dir('s'), name), old, old);
    }
    writeFileSync(join(dir('s'), '.cx-4243-lq2x0abc13.tmp'), 'a writer is at it now');
    await cliOk(['checkpoints', 'clean', '--older-than', '7d']);
    expect(readdirSync(dir('s'))).toEqual(['.cx-4243-lq2x0abc13.tmp']);
  });
});

describe('checkpoints clean touches nothing that is not ours', () => {
  it('other files, look-alike names, a symlink, a FIFO and a folder under our names, a symlinked session folder: all left', {
    tags: ['hook'],
  }, async () => {
    await hook('pre-compact', 's');
    const outside = sandbox().write('outside/cx-001-checkpoint.json', '{"keep": true}');
    const planted = ['notes.md', 'cx-001-checkpoint.json.bak', 'cx-01-checkpoint.json', 'cx-001-checkpoint.json.tmp'];
    for (const name of planted) writeFileSync(join(dir('s'), name), 'theirs');
    symlinkSync(outside, join(dir('s'), 'cx-002-checkpoint.json'));
    writeFileSync(join(dir('s'), 'cx-002-checkpoint.acknowledged'), '');
    execFileSync('mkfifo', [join(dir('s'), 'cx-003-checkpoint.json')]);
    mkdirSync(join(dir('s'), 'cx-004-checkpoint.json'));
    symlinkSync(join(sandbox().root, 'outside'), join(root(), 'linked'));
    const run = await cli(['checkpoints', 'clean', '--all']);
    expect(run.exitCode).toBe(0);
    expect(normalise(run.stderr).split('\n').filter(Boolean).sort()).toEqual(
      [
        'linked (a symlink, not followed)',
        's/cx-002-checkpoint.json (not a regular file)',
        's/cx-003-checkpoint.json (not a regular file)',
        's/cx-004-checkpoint.json (not a regular file)',
      ].map((line) => `context-ceiling: warning: left alone: <root>/project/.claude/context-ceiling/checkpoints/${line}`),
    );
    expect(readdirSync(dir('s')).sort()).toEqual(
      [...planted, 'cx-002-checkpoint.acknowledged', 'cx-002-checkpoint.json', 'cx-003-checkpoint.json', 'cx-004-checkpoint.json'].sort(),
    );
    expect(readFileSync(outside, 'utf8')).toBe('{"keep": true}');
    expect(normalise(run.stdout)).toMatch(
      /^removed s\/cx-001 \(cx-001-checkpoint\.json\)\ncontext-ceiling: removed 1 checkpoint \(1 file\) and 0 session folders from /,
    );
  });

  it.each([['.claude'], ['.claude/context-ceiling'], ['.claude/context-ceiling/checkpoints']])(
    'a symlinked %s is refused: exit 1, naming it, nothing removed through it',
    async (link) => {
      const elsewhere = join(sandbox().root, 'elsewhere');
      // What the link's target holds where our folders would go on: a checkpoint of session s.
      const below = join('.claude/context-ceiling/checkpoints/s'.slice(link.length + 1), 'cx-001-checkpoint.json');
      sandbox().write(join('elsewhere', below), '{}');
      mkdirSync(join(sandbox().project, link, '..'), { recursive: true });
      symlinkSync(elsewhere, join(sandbox().project, link));
      const run = await cli(['checkpoints', 'clean', '--all']);
      expect(run).toMatchObject({ exitCode: 1, stdout: '' });
      expect(normalise(run.stderr)).toBe(`context-ceiling: <root>/project/${link} is a symlink; refusing to use checkpoints through it\n`);
      expect(existsSync(join(elsewhere, below))).toBe(true);
    },
  );

  it('--session naming a symlinked session folder is refused', async () => {
    mkdirSync(root(), { recursive: true });
    sandbox().write('elsewhere/cx-001-checkpoint.json', '{}');
    symlinkSync(join(sandbox().root, 'elsewhere'), join(root(), 's'));
    const run = await cli(['checkpoints', 'clean', '--session', 's']);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(normalise(run.stderr)).toBe(
      'context-ceiling: <root>/project/.claude/context-ceiling/checkpoints/s is a symlink; refusing to use checkpoints through it\n',
    );
    expect(existsSync(join(sandbox().root, 'elsewhere', 'cx-001-checkpoint.json'))).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a checkpoint another user owns stays, with its marker (needs root to give a file away)',
    { tags: ['hook'] },
    async () => {
      await hook('pre-compact', 's');
      writeFileSync(join(dir('s'), 'cx-001-checkpoint.acknowledged'), '');
      chownSync(join(dir('s'), 'cx-001-checkpoint.json'), 4242, 4242);
      const run = await cli(['checkpoints', 'clean', '--all']);
      expect(normalise(run.stderr)).toBe(
        'context-ceiling: warning: left alone: <root>/project/.claude/context-ceiling/checkpoints/s/cx-001-checkpoint.json (belongs to another user)\n',
      );
      expect(readdirSync(dir('s')).sort()).toEqual(['cx-001-checkpoint.acknowledged', 'cx-001-checkpoint.json']);
    },
  );

  it.each([
    [['checkpoints', 'clean'], 'checkpoints clean needs --older-than AGE, --session ID or --all (add --dry-run to see what would go)'],
    [
      ['checkpoints', 'clean', '--all', '--session', 's'],
      '--all cleans every session of the project: give it without --session and --older-than',
    ],
    [['checkpoints', 'clean', '--older-than', 'a week'], '--older-than takes an age such as 30m, 12h or 7d, or an ISO time (got "a week")'],
    [['checkpoints', 'list', '--dry-run'], '--older-than and --dry-run are for checkpoints clean'],
    [['checkpoints', 'clean', 'cx-001', '--all'], 'unexpected argument "cx-001"'],
  ])('%j: one line and usage, exit 1', async (args, message) => {
    const run = await cli(args);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(run.stderr.split('\n')[0]).toBe(`context-ceiling: ${message}`);
  });

  it('--session of a session with no folder says which there are', { tags: ['hook'] }, async () => {
    await hook('pre-compact', 'sess-a');
    const run = await cli(['checkpoints', 'clean', '--session', 'sess-b']);
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'context-ceiling: no session folder sess-b; known: sess-a\n' });
  });
});
