/**
 * globalSetup: `npm pack` once per test run, before any worker starts; the install-route
 * tests (black-box and end-to-end) install this one tarball (`inject('tarball')`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed artifact (context-ceiling-<version>.tgz) of the current build. */
    tarball: string;
  }
}

/** A child run (test/helpers/hook-suites.ts) installs its parent's tarball: the same build, not packed again. */
export const PACKED_TARBALL_ENV = 'CC_PACKED_TARBALL';

export default function setup(project: TestProject): () => void {
  const packed = process.env[PACKED_TARBALL_ENV];
  if (packed && existsSync(packed)) {
    project.provide('tarball', packed);
    return () => {};
  }
  const out = mkdtempSync(join(tmpdir(), 'cc-pack-'));
  // The stand-in run (test/blackbox/standin.test.ts) runs only hook suites: none installs the tarball.
  if (process.env.CC_SKIP_PACK === '1') {
    project.provide('tarball', join(out, 'not-packed.tgz'));
    return () => rmSync(out, { recursive: true, force: true });
  }
  // --ignore-scripts: the build already ran (pretest); prepack would rebuild under the workers' feet.
  const json = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], {
    cwd: resolve(import.meta.dirname, '..', '..'),
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: out, npm_config_cache: join(out, 'npm-cache'), npm_config_update_notifier: 'false' },
  });
  const [info] = JSON.parse(json) as Array<{ filename: string }>;
  project.provide('tarball', join(out, info!.filename));
  return () => rmSync(out, { recursive: true, force: true });
}
