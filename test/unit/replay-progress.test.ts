/** replay's progress: a bar redrawn with \r only on a terminal stderr outside CI; plain lines everywhere else. */
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/command.js';
import { main } from '../../src/cli/main.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox } from '../helpers/sandbox.js';

async function replayProgress(terminal: Pick<CliIO, 'stdoutIsTTY' | 'stderrIsTTY'>, env: Record<string, string> = {}) {
  const sandbox = makeSandbox();
  try {
    sandbox.write('sessions/s1.jsonl', aTranscript('s1').assistant({ cacheRead: 50_000 }).toString());
    sandbox.write('sessions/s2.jsonl', aTranscript('s2').assistant({ cacheRead: 90_000 }).toString());
    let err = '';
    const io: CliIO = {
      env: { HOME: sandbox.home, ...env },
      cwd: sandbox.project,
      home: sandbox.home,
      ...terminal,
      out: () => {},
      err: (text) => {
        err += text;
      },
      readStdin: () => undefined,
    };
    expect(await main(['replay', `${sandbox.root}/sessions`, '--json'], io)).toBe(0);
    return err;
  } finally {
    sandbox.cleanup();
  }
}

const BAR = /\rreplay \[#{30}\] 100% 2\/2 files\n$/;
const LINE = /^replay: 100% \(.* of .*, 2 of 2 files\)\n$/m;

describe('replay progress', () => {
  it('stderr a terminal, not CI: the bar', async () => {
    expect(await replayProgress({ stdoutIsTTY: false, stderrIsTTY: true })).toMatch(BAR);
  });

  it.each([
    ['stdout a terminal, stderr not (2> log)', { stdoutIsTTY: true, stderrIsTTY: false }, {}],
    ['stderr unknown', { stdoutIsTTY: true, stderrIsTTY: undefined }, {}],
    ['stderr a terminal under CI', { stdoutIsTTY: true, stderrIsTTY: true }, { CI: 'true' }],
    ['stderr a terminal under CI set empty', { stdoutIsTTY: true, stderrIsTTY: true }, { CI: '' }],
  ])('%s: plain lines, no \\r', async (_, terminal, env) => {
    const err = await replayProgress(terminal, env);
    expect(err).toMatch(LINE);
    expect(err).not.toContain('\r');
  });
});
