/** report: the terminal chart, and the HTML page rendered in headless Chromium, checked by what it draws. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { launchChromium } from '../helpers/chromium.js';
import { makeSandbox, runCli, runCliOk, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

/**
 * 40 turns on claude-haiku-4-5 (its attachment confirms a 200,000 window) rising 2.5 points a turn from 5 %,
 * compacted after turns 20 and 35; a Skill call every 5th turn.
 */
function session(): string {
  const t = aTranscript('demo-session').modelAttachment('claude-haiku-4-5');
  let pct = 5;
  for (let turn = 1; turn <= 40; turn++) {
    t.assistant({
      model: 'claude-haiku-4-5',
      cacheRead: pct * 2_000 - 5,
      toolUse: turn % 5 === 0 ? { name: 'Skill', input: { skill: 'deep-dive' } } : { name: 'Read', input: { file_path: 'x' } },
    });
    pct += 2.5;
    if (turn === 20 || turn === 35) {
      t.compactBoundary({ postTokens: 4_000 });
      pct = 3;
    }
  }
  return sandbox.write('demo-session.jsonl', t.toString());
}

describe('report in the terminal', () => {
  it('draws occupancy against the ceiling and tiers, with compactions and gated calls marked', async () => {
    const run = await runCliOk(sandbox, ['report', session(), '--width', '40']);
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('Session demo-session');
    expect(lines[1]).toBe(
      '40 turns · peak 53% (105,000 tokens, turn 20) · 2 compactions · 8 gated calls, 2 over the 40% ceiling · window 200,000 (model claude-haiku-4-5)',
    );
    expect(lines.find((l) => l.endsWith(' ceiling 40%'))).toMatch(/^ 40% ┤[─█▁-▇]{40} ceiling 40%$/);
    // The default tiers sit below Claude Code's compaction point (about 167,000 of 200,000).
    for (const tier of ['WARNING 62.6%', 'CRITICAL 71%', 'EMERGENCY 79.3%']) expect(run.stdout).toContain(tier);
    const markers = lines[lines.findIndex((l) => l.startsWith('     └')) + 1]!;
    expect([...markers].filter((c) => c === '▲')).toHaveLength(2);
    expect([...markers].filter((c) => c === '*')).toHaveLength(2);
  });

  it('one turn under 1 %: "1 turn · peak <1%", never "1 turns" or a 0 % peak, in the text and the HTML page', async () => {
    const transcript = sandbox.write('tiny.jsonl', aTranscript('tiny').assistant({ cacheRead: 3_000 }).toString());
    const html = join(sandbox.root, 'tiny.html');
    const run = await runCliOk(sandbox, ['report', transcript, '--html', html]);
    expect(run.stdout.split('\n')[1]).toMatch(/^1 turn · peak <1% \(3,005 tokens, turn 1\) · 0 compactions · /);
    expect(readFileSync(html, 'utf8')).toContain('1 turn · peak &lt;1% (3,005 tokens, turn 1)');
  });

  it('a peak at or over 100 % is explained, with how to fix it, in the text, --json and the HTML page', async () => {
    // A model Claude Code's table does not know is judged against the 1,000,000 it assumes; this session held more.
    const transcript = sandbox.write(
      'big.jsonl',
      aTranscript('big').assistant({ cacheRead: 1_200_000, model: 'claude-mystery-9' }).toString(),
    );
    // The session proves its window is larger, so it is judged against what it held: 100 %, explained.
    const note =
      'Peak 100% only because the window is unknown: the session held 1,200,005 tokens, more than the window its model was thought to have, ' +
      'so it is judged against what it held (the guard does the same, and warns only). Judge it against the real one: report --window 1300000; ' +
      'and tell the guard: DEV_TEAM_CONTEXT_WINDOW=1300000 or "window" in a policy file.';
    const text = await runCliOk(sandbox, ['report', transcript]);
    expect(text.stdout.split('\n')[2]).toBe(note);
    expect(JSON.parse((await runCliOk(sandbox, ['report', transcript, '--json'])).stdout).peakNote).toBe(note);
    const html = join(sandbox.root, 'big.html');
    await runCliOk(sandbox, ['report', transcript, '--html', html]);
    expect(readFileSync(html, 'utf8')).toContain(`<p class="note">${note.replaceAll('"', '&quot;')}</p>`);
    // Within the window there is no note.
    expect(JSON.parse((await runCliOk(sandbox, ['report', session(), '--json'])).stdout).peakNote).toBeUndefined();
  });

  it('a missing transcript is a clear error', async () => {
    const run = await runCli(sandbox, ['report', join(sandbox.root, 'nope.jsonl')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`context-ceiling: cannot read ${join(sandbox.root, 'nope.jsonl')}: no such file or directory (ENOENT)\n`);
  });
});

describe('report --html in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('draws the occupancy line, the thresholds at their heights, compaction markers, gated calls, axes and legend; loads nothing', async () => {
    const html = join(sandbox.root, 'report.html');
    const run = await runCliOk(sandbox, ['report', session(), '--html', html]);
    expect(run.stdout).toContain(`HTML report written to ${html}`);
    expect(readFileSync(html, 'utf8')).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);

    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`file://${html}`);
    expect(requests).toEqual([`file://${html}`]); // self-contained

    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const occupancy = page.locator('polyline.occupancy');
    await expect(occupancy.isVisible()).resolves.toBe(true);
    expect(await occupancy.getAttribute('data-turns')).toBe('40');
    expect((await occupancy.getAttribute('points'))!.trim().split(/\s+/)).toHaveLength(40);
    const line = await box('polyline.occupancy');
    expect(line.width).toBeGreaterThan(600);

    // Thresholds: drawn across the plot, at their percent of the 0-100 % axis.
    const gridTop = await page.locator('line.grid').last().boundingBox(); // 100 %
    const gridBottom = await page.locator('line.grid').first().boundingBox(); // 0 %
    const heightOf = async (cls: string) => {
      const b = await box(`line.threshold.${cls}`);
      return (gridBottom!.y - b.y) / (gridBottom!.y - gridTop!.y);
    };
    expect(await heightOf('ceiling')).toBeCloseTo(0.4, 2);
    expect(await heightOf('tier-warning')).toBeCloseTo(0.626, 2);
    expect(await heightOf('tier-critical')).toBeCloseTo(0.71, 2);
    expect(await heightOf('tier-emergency')).toBeCloseTo(0.793, 2);
    expect(Math.abs((await box('line.threshold.ceiling')).width - line.width)).toBeLessThan(10);

    // Compactions: two vertical markers spanning the plot, after turns 20 and 35.
    const compactions = page.locator('line.compaction');
    expect(await compactions.count()).toBe(2);
    expect(await compactions.evaluateAll((els) => els.map((e) => e.getAttribute('data-turn')))).toEqual(['20', '35']);
    const marker = (await compactions.first().boundingBox())!;
    expect(marker.height).toBeCloseTo(gridBottom!.y - gridTop!.y, -1);
    expect(marker.x).toBeGreaterThan(line.x + line.width * 0.45);
    expect(marker.x).toBeLessThan(line.x + line.width * 0.55);

    // Gated calls: 8 drawn, the 2 over the ceiling above the ceiling line.
    expect(await page.locator('circle.gated-call').count()).toBe(8);
    const over = page.locator('circle.gated-call.over');
    expect(await over.count()).toBe(2);
    const ceilingY = (await box('line.threshold.ceiling')).y;
    for (const b of await over.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().y))) expect(b).toBeLessThan(ceilingY);

    // Axes and legend are rendered text, visible.
    for (const text of [
      'turn',
      'occupancy per turn',
      'ceiling (40%)',
      'tier thresholds',
      'compaction',
      'gated call over the ceiling',
      'ceiling 40%',
      'EMERGENCY 79.3%',
      '100%',
      '0%',
    ]) {
      await expect(page.getByText(text, { exact: true }).first().isVisible(), text).resolves.toBe(true);
    }
    expect(await page.locator('text.axis-label').nth(1).textContent()).toBe(
      'occupancy, % of 200,000-token window (model claude-haiku-4-5)',
    );
    // Threshold labels are plain filled text: the line's dashed stroke must not outline them.
    expect(
      await page
        .locator('text.threshold-label')
        .evaluateAll((els) => els.map((e) => e.ownerDocument.defaultView!.getComputedStyle(e).stroke)),
    ).toEqual(['none', 'none', 'none', 'none']);

    // And the picture is not blank: the line's colour is on screen.
    const png = await page.screenshot({ clip: { x: line.x, y: line.y, width: line.width, height: line.height } });
    expect(png.length).toBeGreaterThan(2_000);
    await page.close();
  }, 60_000);
});
