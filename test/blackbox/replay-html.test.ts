/** replay --html: the history as one page, rendered in headless Chromium and checked by what it draws. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { launchChromium } from '../helpers/chromium.js';
import { makeSandbox, runCli, type HookRun, type Sandbox } from '../helpers/sandbox.js';

const HAIKU = 'claude-haiku-4-5';
let sandbox: Sandbox;
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

/** replay succeeds; its stderr carries only the progress lines. */
async function replay(args: string[]): Promise<HookRun> {
  const run = await runCli(sandbox, ['replay', ...args]);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stderr.split('\n').filter((line) => line && !line.startsWith('replay: '))).toEqual([]);
  return run;
}

/** Ten sessions on a 200,000 window: six climb to 75 % loading an Agent at 45 % and a Skill at 65 %; four stay at 30 %. */
function history(): string {
  const dir = join(sandbox.root, 'projects');
  for (let i = 0; i < 10; i++) {
    const t = aTranscript(`s${i}`).modelAttachment(HAIKU);
    if (i < 6)
      t.assistant({ model: HAIKU, cacheRead: 50_000 })
        .assistant({ model: HAIKU, cacheRead: 90_000, toolUse: { name: 'Agent', input: { subagent_type: 'Explore' } } })
        .assistant({ model: HAIKU, cacheRead: 130_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } })
        .assistant({ model: HAIKU, cacheRead: 150_000 });
    else t.assistant({ model: HAIKU, cacheRead: 60_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } });
    sandbox.write(`projects/-home-dev-app/s${i}.jsonl`, t.toString());
  }
  return dir;
}

it('says what the terminal says (summary, recommendation, table) and draws each candidate: sessions gated, first gated fill, the recommended one', async () => {
  const dir = history();
  const html = join(sandbox.root, 'replay.html');
  const text = await replay([dir]);
  const run = await replay([dir, '--html', html]);
  expect(run.stdout.replace(/ in [\d.]+ s \([^)]*\)/, '')).toBe(
    `${text.stdout.replace(/ in [\d.]+ s \([^)]*\)/, '')}HTML report written to ${html}\n`,
  );
  const recommendation = text.stdout.split('\n').find((line) => line.startsWith('Recommended ceiling: 40%'));
  expect(recommendation).toBeDefined();
  const page = readFileSync(html, 'utf8');
  expect(page).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);

  const tab = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
  const requests: string[] = [];
  tab.on('request', (request) => requests.push(request.url()));
  await tab.goto(`file://${html}`);
  expect(await tab.locator('p.recommendation').textContent()).toBe(recommendation);
  expect(await tab.locator('p.summary').first().textContent()).toMatch(/^Replayed 10 sessions, /);
  await expect(tab.locator('p.summary').nth(1).textContent()).resolves.toBe(
    'Windows: 10 sessions at 200,000 tokens (model claude-haiku-4-5). 10 sessions made calls the guard judges.',
  );
  // Sessions gated: 20 % and 30 % gate all ten, 40 % to 60 % the six that climbed; the bar heights say so.
  const bars = await tab.locator('rect.gated').evaluateAll((rects) =>
    rects.map((r) => ({
      ceiling: r.getAttribute('data-ceiling'),
      height: Number(r.getAttribute('height')),
      recommended: r.classList.contains('recommended'),
    })),
  );
  expect(bars.map((b) => b.ceiling)).toEqual(['20', '30', '40', '50', '60']);
  expect(bars[2]!.height / bars[0]!.height).toBeCloseTo(0.6, 5);
  expect(bars.filter((b) => b.recommended).map((b) => b.ceiling)).toEqual(['40']);
  // The first gated call's median fill: 45 % at the 40 % ceiling (the Agent), 65 % at 50 % and 60 % (the Skill).
  const fills = await tab
    .locator('circle.first-fill')
    .evaluateAll((dots) => dots.map((d) => [d.getAttribute('data-ceiling'), d.getAttribute('data-fill')]));
  expect(fills).toContainEqual(['40', '45.0']);
  expect(fills).toContainEqual(['60', '65.0']);
  expect(await tab.locator('tr.recommended td').first().textContent()).toBe('40%');
  expect(await tab.locator('rect.peak[data-sessions="6"]').getAttribute('data-band')).toBe('70');
  expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
  await tab.close();
});

it('--json names the page; a directory given as the page is refused before any work', async () => {
  const dir = history();
  const html = join(sandbox.root, 'replay.html');
  expect(JSON.parse((await replay([dir, '--html', html, '--json'])).stdout).html).toBe(html);
  const refused = await runCli(sandbox, ['replay', dir, '--html', sandbox.root]);
  expect(refused).toMatchObject({ exitCode: 1, stdout: '' });
  expect(refused.stderr).toContain(`--html ${sandbox.root}`);
});
