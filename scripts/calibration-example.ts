/**
 * `npm run docs:calibration`: redraws docs/calibration.md's report example from the current code. Writes the
 * sample session (src/samples/calibration-session.ts), runs the built CLI's `report` on it as a person would,
 * puts the terminal chart between the page's report-example markers and renders the HTML page in headless
 * Chromium (CHROMIUM_PATH, else /usr/bin/chromium) into docs/img/report-example.png.
 * test/blackbox/calibration-doc.test.ts fails when the page and the code disagree.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CALIBRATION_SESSION, calibrationSession } from '../src/samples/calibration-session.js';

/** The package root: this file runs bundled from bench/.data/, so walk up to the folder holding docs/calibration.md. */
function findRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(join(dir, 'docs', 'calibration.md'))) return dir;
  throw new Error(`no package root above ${from}`);
}
const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
const DOC = join(ROOT, 'docs', 'calibration.md');
const START = '<!-- report-example: npm run docs:calibration -->';
const END = '<!-- /report-example -->';

const dir = mkdtempSync(join(tmpdir(), 'context-ceiling-calibration-'));
try {
  writeFileSync(join(dir, `${CALIBRATION_SESSION}.jsonl`), calibrationSession());
  const chart = execFileSync(
    process.execPath,
    [join(ROOT, 'plugin', 'dist', 'cli.cjs'), 'report', `${CALIBRATION_SESSION}.jsonl`, '--width', '64', '--html', 'report.html'],
    { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NO_COLOR: '1' }, encoding: 'utf8' },
  );
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from === -1 || to < from) throw new Error(`${DOC} has no ${START} … ${END} block`);
  writeFileSync(DOC, `${doc.slice(0, from + START.length)}\n\`\`\`\n${chart.replace(/\n$/, '')}\n\`\`\`\n${doc.slice(to)}`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1040, height: 600 } });
    await page.goto(`file://${join(dir, 'report.html')}`);
    await page.screenshot({ path: join(ROOT, 'docs', 'img', 'report-example.png') });
  } finally {
    await browser.close();
  }
  process.stdout.write(`docs/calibration.md and docs/img/report-example.png redrawn from ${CALIBRATION_SESSION}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
