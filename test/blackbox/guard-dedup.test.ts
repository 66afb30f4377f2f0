// @module-tag hook
/** The guard failing open on bad input and unusable state, and warning once per band (dedup state in a private directory). */
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { describeGuard, expectBlocked, expectSilent, expectWarned, STRICT } from '../helpers/guard-runners.js';
import { preToolUse } from '../helpers/sandbox.js';

describeGuard((h) => {
  const { guard, transcriptAt } = h;

  describe('failing open', () => {
    it('missing transcript: silent even in strict mode', async () => {
      expectSilent(
        await guard(preToolUse(join(h.sandbox.root, 'nope.jsonl'), 'Skill', { skill: 'x' }), STRICT),
        'allow unmeasured no-transcript',
      );
    });

    it.each([
      ['empty stdin', ''],
      ['non-JSON stdin', 'this is not json'],
      ['a JSON array', '[1,2,3]'],
      ['JSON null', 'null'],
      ['missing tool_name', JSON.stringify({ session_id: 's', transcript_path: '/x' })],
      ['wrong types', JSON.stringify({ session_id: 1, transcript_path: true, tool_name: 'Skill' })],
      ['truncated JSON', '{"session_id":"s","transcript_path":"/x","tool_na'],
    ])('%s: silent exit 0', async (_name, stdin) => {
      expectSilent(await guard(stdin, STRICT), 'allow not-a-pre-tool-use-input');
    });

    it('garbled transcript: silent', async () => {
      const transcript = h.sandbox.write('claude/garbled.jsonl', '\u0000\u0001garbage\n{"type":"assistant"\n');
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT), 'allow unmeasured no-usage');
    });

    it('unknown since compaction (boundary without postTokens): silent even strict', async () => {
      const transcript = h.sandbox.write(
        'claude/c.jsonl',
        aTranscript().assistant({ cacheRead: 950_000 }).compactBoundary({ trigger: 'manual' }).toString(),
      );
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT), 'allow unknown-since-compaction');
    });

    it('an invalid policy file is ignored in a hook, other layers kept', async () => {
      h.sandbox.write('project/.claude/context-ceiling.json', '{"strict": "yes"');
      h.sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ ceilingPct: 25 }));
      const run = await guard(preToolUse(transcriptAt(300_000), 'Agent', {}, { cwd: h.sandbox.project }));
      const { user } = expectWarned(run, 'warn over-ceiling +notice');
      expect(run.stderr).toContain('25% ceiling');
      // The person hears which file was left out (issue 19: a broken policy never goes unsaid).
      expect(user).toContain(
        `context-ceiling: a policy file was ignored, so its settings (strict mode included) are not in force: ${join(h.sandbox.project, '.claude', 'context-ceiling.json')}:`,
      );
    });

    it('unusable state directory: the warning is still given, every time, saying why it repeats', async () => {
      const file = h.sandbox.write('not-a-dir', 'x');
      const env = { DEV_TEAM_CONTEXT_STATE_DIR: join(file, 'state') };
      for (let i = 0; i < 2; i++) {
        const { user } = expectWarned(await guard(preToolUse(transcriptAt(450_000), 'Agent'), env), 'warn over-ceiling unremembered');
        expect(user).toContain(
          `the state directory ${join(file, 'state')} cannot be used (not a private directory of yours), so warnings are not remembered`,
        );
      }
    });

    it('a block does not need state: strict still blocks with an unusable state directory', async () => {
      const file = h.sandbox.write('not-a-dir', 'x');
      expectBlocked(
        await guard(preToolUse(transcriptAt(450_000), 'Skill', { skill: 'x' }), {
          ...STRICT,
          DEV_TEAM_CONTEXT_STATE_DIR: join(file, 'state'),
        }),
      );
    });

    it('debug mode says what happened, on stderr', async () => {
      const run = await guard(preToolUse(join(h.sandbox.root, 'nope.jsonl'), 'Agent'), { DEV_TEAM_CONTEXT_DEBUG: '1' });
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /context-ceiling debug: pre-tool-use: allow unmeasured no-transcript tool=Agent occupancy=\? .*transcript-error="ENOENT/,
      );
      expect(run.reason).toBe('allow unmeasured no-transcript');
    });
  });

  describe('dedup', () => {
    it('same 5-point bucket is silent on the second call; a higher bucket warns again; a lower one stays silent', async () => {
      const path = join(h.sandbox.root, 'claude', 'grow.jsonl');
      const write = (tokens: number) =>
        h.sandbox.write(
          'claude/grow.jsonl',
          aTranscript()
            .user('go')
            .assistant({ cacheRead: tokens - 5 })
            .toString(),
        );
      write(410_000);
      expect(expectWarned(await guard(preToolUse(path, 'Agent'))).model).toContain('41%');
      write(440_000);
      expectSilent(await guard(preToolUse(path, 'Agent')), 'deduplicated over-ceiling');
      write(460_000);
      expect(expectWarned(await guard(preToolUse(path, 'Agent'))).model).toContain('46%');
      write(425_000);
      expectSilent(await guard(preToolUse(path, 'Agent')), 'deduplicated over-ceiling');
    });

    it('20 concurrent calls for one session warn exactly once for their band', async () => {
      const input = preToolUse(transcriptAt(450_000), 'Agent');
      const runs = await Promise.all(Array.from({ length: 20 }, () => guard(input)));
      expect(runs.every((run) => run.exitCode === 0)).toBe(true);
      expect(runs.filter((run) => run.stderr !== '')).toHaveLength(1);
      expect(runs.filter((run) => run.stdout !== '')).toHaveLength(1);
      expect(runs.filter((run) => run.reason === 'deduplicated over-ceiling')).toHaveLength(19);
    });

    it('dedup is per session', async () => {
      const transcript = transcriptAt(450_000);
      expectWarned(await guard(preToolUse(transcript, 'Agent', {}, { session_id: 'a' })));
      expectWarned(await guard(preToolUse(transcript, 'Agent', {}, { session_id: 'b' })));
      expectSilent(await guard(preToolUse(transcript, 'Agent', {}, { session_id: 'a' })), 'deduplicated over-ceiling');
    });

    it('a compaction resets dedup: the first re-crossing after it warns again', async () => {
      const before = aTranscript()
        .user('go')
        .assistant({ cacheRead: 450_000 - 5 });
      const path = h.sandbox.write('claude/s.jsonl', before.toString());
      expect(expectWarned(await guard(preToolUse(path, 'Agent'))).model).toContain('45%');
      expectSilent(await guard(preToolUse(path, 'Agent')), 'deduplicated over-ceiling');
      // compaction, then growth back over the ceiling into the same bucket
      before
        .compactBoundary({ postTokens: 3_000 })
        .user('continue')
        .assistant({ cacheRead: 60_000 })
        .assistant({ cacheRead: 450_000 - 5 });
      h.sandbox.write('claude/s.jsonl', before.toString());
      expect(expectWarned(await guard(preToolUse(path, 'Agent'))).model).toContain('45%');
      expectSilent(await guard(preToolUse(path, 'Agent')), 'deduplicated over-ceiling');
    });

    it('state lives in a private 0700 directory under the home (XDG state), nothing in TMPDIR', async () => {
      expectWarned(await guard(preToolUse(transcriptAt(450_000), 'Agent')));
      const state = join(h.sandbox.home, '.local', 'state', 'context-ceiling');
      expect(statSync(state).mode & 0o777).toBe(0o700);
      expect(readdirSync(state).sort()).toEqual(['events.jsonl', 'sessions']);
      expect(readdirSync(h.sandbox.tmp)).toEqual([]);
    });

    it('XDG_STATE_HOME moves it; a relative XDG_STATE_HOME is ignored (XDG says so)', async () => {
      const xdg = join(h.sandbox.root, 'xdg');
      expectWarned(await guard(preToolUse(transcriptAt(450_000), 'Agent'), { XDG_STATE_HOME: xdg }));
      expect(readdirSync(join(xdg, 'context-ceiling'))).toContain('sessions');
      expectWarned(await guard(preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: 'rel' }), { XDG_STATE_HOME: 'relative/xdg' }));
      expect(readdirSync(join(h.sandbox.home, '.local', 'state', 'context-ceiling', 'sessions'))).toEqual(['rel']);
    });

    it('a symlinked state directory is refused: no file is written through it, and the warning is still given', async () => {
      const target = join(h.sandbox.root, 'elsewhere');
      mkdirSync(target);
      const link = join(h.sandbox.root, 'state-link');
      symlinkSync(target, link);
      expectWarned(
        await guard(preToolUse(transcriptAt(450_000), 'Agent'), { DEV_TEAM_CONTEXT_STATE_DIR: link }),
        'warn over-ceiling unremembered',
      );
      expect(readdirSync(target)).toEqual([]);
    });

    it('session ids cannot escape the state directory', async () => {
      const state = join(h.sandbox.root, 'state');
      await guard(preToolUse(transcriptAt(450_000), 'Agent', {}, { session_id: '../../escaped' }), { DEV_TEAM_CONTEXT_STATE_DIR: state });
      expect(existsSync(join(h.sandbox.root, 'escaped'))).toBe(false);
      expect(readdirSync(join(state, 'sessions'))).toEqual(['______escaped']);
    });
  });
});
