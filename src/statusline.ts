/** The status line entry (plugin/dist/statusline.cjs): `node statusline.cjs [--wrap "<command>"]`. */
import type { HookContext } from './hooks/context.js';
import { processHookContext } from './hooks/run.js';
import { runStatusLine } from './hooks/statusline.js';
import { readStdin, writeAll } from './io/hook-io.js';
import type * as PolicyParse from './io/policy-parse.js';

const services: Pick<HookContext, 'parsePolicy' | 'parseYaml' | 'voice'> = {
  parsePolicy: (text, path) => (require('./policy-parse.cjs') as typeof PolicyParse).parsePolicyText(text, path),
  parseYaml: () => ({ ok: false, error: 'not used by the status line' }),
  voice: () => {
    throw new Error('not used by the status line');
  },
};

try {
  const args = process.argv.slice(2);
  const wrapAt = args.indexOf('--wrap');
  const output = runStatusLine(readStdin(), processHookContext(services), { wrap: wrapAt === -1 ? undefined : args[wrapAt + 1] });
  if (output) writeAll(1, `${output}\n`);
} catch {
  process.exitCode = 0; // a status line never fails
}
