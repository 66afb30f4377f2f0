// @module-tag hook
/** PostToolUse on the orchestration file, run as Claude Code runs it, on real files in temp projects. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, hookEvents, ORCHESTRATION } from '../helpers/hook-events.js';
import { expectSilent, makeSandbox, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const { hook } = hookEvents(() => sandbox);

describe('PostToolUse on the orchestration file', () => {
  const written = (file: string, tool = 'Write') =>
    hook('post-tool-use', {
      hook_event_name: 'PostToolUse',
      tool_name: tool,
      tool_input: { file_path: file, content: '...' },
      tool_response: { success: true },
    });
  const orchestration = () => join(sandbox.project, 'ORCHESTRATION.yaml');

  it('a fresh resumption section is silent', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION);
    expectSilent(await written(orchestration()), 'resumption-fresh');
  });

  it('a stale updated_at warns through additionalContext', async () => {
    sandbox.write(
      'project/ORCHESTRATION.yaml',
      ORCHESTRATION.replace(/updated_at: .*/, `updated_at: ${new Date(Date.now() - 3 * 3600_000).toISOString()}`),
    );
    const run = await written(orchestration(), 'Edit');
    expect(JSON.parse(run.stdout).hookSpecificOutput.hookEventName).toBe('PostToolUse');
    expect(context(run)).toMatch(
      /^context-ceiling: ORCHESTRATION\.yaml was just written but its resumption section was last updated 3 h 0 min ago/,
    );
  });

  it('the staleness threshold is configurable', async () => {
    sandbox.write(
      'project/ORCHESTRATION.yaml',
      ORCHESTRATION.replace(/updated_at: .*/, `updated_at: ${new Date(Date.now() - 3 * 3600_000).toISOString()}`),
    );
    expect(
      (
        await hook(
          'post-tool-use',
          { tool_name: 'Write', tool_input: { file_path: orchestration() } },
          { DEV_TEAM_CONTEXT_RESUMPTION_STALE_MINUTES: '600' },
        )
      ).stdout,
    ).toBe('');
  });

  it('a missing updated_at warns', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION.replace(/ {2}updated_at: .*\n/, ''));
    expect(context(await written(orchestration()))).toContain('resumption.updated_at is missing');
  });

  it('a relative file_path is resolved against cwd', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', ORCHESTRATION.replace(/ {2}updated_at: .*\n/, ''));
    expect(context(await written('ORCHESTRATION.yaml'))).toContain('resumption.updated_at is missing');
  });

  it('malformed YAML after a write warns with the line', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', 'resumption:\n  next_step: [unclosed\n');
    expect(context(await written(orchestration()))).toMatch(/is not valid YAML \(line \d+, column \d+/);
  });

  it('YAML the parser only warns about prints nothing on stderr', async () => {
    sandbox.write('project/ORCHESTRATION.yaml', 'resumption: !custom-tag x\n');
    const run = await written(orchestration());
    expect(run.stderr).toBe('');
    expect(context(run)).toContain('has no resumption: section');
  });

  it('other files are ignored', async () => {
    sandbox.write('project/README.md', '# x');
    expectSilent(await written(join(sandbox.project, 'README.md')), 'not-the-orchestration-file');
    expectSilent(await written(join(sandbox.project, 'sub', 'ORCHESTRATION.yaml')), 'not-the-orchestration-file');
  });
});
