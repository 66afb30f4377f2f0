/** `hook` and `statusline` speak only through CliIO: stdin, env, cwd and output all come from the io given to main(). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/command.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { FIXTURES, makeSandbox, preToolUse, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

function fakeIO(stdin: string | undefined, env: Record<string, string>) {
  const written = { out: '', err: '' };
  const io: CliIO = {
    env: { HOME: sandbox.home, DEV_TEAM_CONTEXT_STATE_DIR: join(sandbox.tmp, 'state'), ...env },
    cwd: sandbox.project,
    home: sandbox.home,
    stdoutIsTTY: false,
    out: (text) => (written.out += text),
    err: (text) => (written.err += text),
    readStdin: () => stdin,
  };
  return { io, written };
}

describe('CLI commands that run hooks', () => {
  it('hook pre-tool-use reads its input and env from CliIO and writes the block through it', async () => {
    const transcript = sandbox.write('t.jsonl', aTranscript().assistant({ cacheRead: 150_000 }).toString());
    const { io, written } = fakeIO(JSON.stringify(preToolUse(transcript, 'Skill', { skill: 'deep-dive' })), {
      DEV_TEAM_CONTEXT_STRICT: 'on',
      DEV_TEAM_CONTEXT_WINDOW: '200000',
    });
    expect(await main(['hook', 'pre-tool-use'], io)).toBe(0);
    expect(JSON.parse(written.out).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(written.err).toMatch(/^context-ceiling: blocked Skill "deep-dive"/);
  });

  it('hook pre-tool-use with no stdin fails open, silent', async () => {
    const { io, written } = fakeIO(undefined, { DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(await main(['hook', 'pre-tool-use'], io)).toBe(0);
    expect(written).toEqual({ out: '', err: '' });
  });

  it('statusline reads the status JSON from CliIO and prints its line through it', async () => {
    const input = readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8');
    const { io, written } = fakeIO(input, { NO_COLOR: '1' });
    expect(await main(['statusline'], io)).toBe(0);
    expect(written.err).toBe('');
    expect(written.out).toMatch(/^ctx 12% .* 121,005\/1,000,000 · 278,995 to the 40% ceiling\n$/);
  });
});
