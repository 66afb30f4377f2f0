/**
 * The library's published types against the real Agent SDK: a TypeScript user's program (the README's example, and
 * the guard as the SDK's own HookCallbackMatcher and Options) compiles with the pinned SDK and dist/index.d.ts.
 * The repository type-checks src/sdk/ceiling-guard.ts against a local subset of the SDK's types (src/types/claude-agent-sdk.d.ts);
 * this is where that subset is held to the real thing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-sdk-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README's SDK example, as a user would paste it. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /^#+ In an Agent SDK program$[\s\S]*?```ts\n([\s\S]*?)```/m.exec(readme);
  if (!block) throw new Error('README has no SDK example');
  return block[1]!;
}

/** tsc, strict, on these files; the SDK resolved to the pinned one, context-ceiling to this checkout's build. */
async function compile(files: Record<string, string>): Promise<{ exitCode: number; output: string }> {
  const project = mkdtempSync(join(dir, 'p-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'context-ceiling'), 'dir');
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
      paths: { '@anthropic-ai/claude-agent-sdk': [join(dirname(inject('agentSdkEntry')), 'sdk.d.ts')] },
    },
    files: Object.keys(files),
  };
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  const run = await execa(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { reject: false });
  return { exitCode: run.exitCode ?? -1, output: `${run.stdout}${run.stderr}` };
}

describe('the published types with the real Agent SDK', () => {
  it("the README's SDK example compiles: createCeilingGuard is a PreToolUse hook, contextUsage takes getContextUsage", async () => {
    const result = await compile({ 'readme-example.ts': readmeExample() });
    expect(result.output).toBe('');
    expect(result.exitCode).toBe(0);
  });

  it("the guard is the SDK's HookCallbackMatcher and fits its Options; a misuse is an error, so the types are real", async () => {
    const program = `import type { HookCallbackMatcher, Options } from '@anthropic-ai/claude-agent-sdk';
import { createCeilingGuard, type CeilingDecision } from 'context-ceiling';

const guard: HookCallbackMatcher = createCeilingGuard({ strict: true, window: 1_000_000, onDecision: (d: CeilingDecision) => void d.outcome });
export const options: Options = { hooks: { PreToolUse: [guard], PostToolUse: [createCeilingGuard()] } };
// @ts-expect-error an error only while the published return type resolves to the SDK's (an unresolved import is any)
export const wrong: number = createCeilingGuard();
`;
    const result = await compile({ 'types.ts': program });
    expect(result.output).toBe('');
    expect(result.exitCode).toBe(0);
  });
});
