/**
 * docs/calibration.md's report example is what the current code draws for its sample session: a change to the
 * tiers, the chart or the sample fails here until `npm run docs:calibration` redraws the page (and its picture).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CALIBRATION_SESSION, calibrationSession } from '../../src/samples/calibration-session.js';
import { makeSandbox, ROOT, runCliOk, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

it('the report example in docs/calibration.md is the current report of the sample session (npm run docs:calibration)', async () => {
  sandbox.write(`project/${CALIBRATION_SESSION}.jsonl`, calibrationSession());
  const run = await runCliOk(sandbox, ['report', `${CALIBRATION_SESSION}.jsonl`, '--width', '64', '--html', 'report.html']);
  const doc = readFileSync(join(ROOT, 'docs', 'calibration.md'), 'utf8');
  const block = /<!-- report-example: npm run docs:calibration -->\n```\n([\s\S]*?)\n```\n<!-- \/report-example -->/.exec(doc);
  expect(block, 'docs/calibration.md lost its report-example markers').not.toBeNull();
  expect(block![1]).toBe(run.stdout.replace(/\n$/, ''));
  // The page's own sentences about it: the placed tiers on its 200,000 window.
  expect(run.stdout).toContain('window 200,000 (model claude-haiku-4-5)');
  for (const tier of ['WARNING 62.6%', 'CRITICAL 71%', 'EMERGENCY 79.3%']) expect(run.stdout).toContain(tier);
});
