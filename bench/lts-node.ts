/**
 * Nodes for the benches beside the machine's own, from the npm registry (the `node` package's platform binaries,
 * node-<platform>-<arch>), unpacked once into bench/.data/tools: the current LTS line's, which a user installing Node
 * today gets, and the newest of each older line still maintained, which many users have. Each starts and loads code
 * differently from the others.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const NODE_LTS_VERSION = '26.12.1';

/** The newest release of each older Node line still maintained on 2026-11-29 (22 until 2027-04, 24 until 2028-04). */
export const NODE_MAINTAINED_VERSIONS = ['22.23.5', '24.22.3'] as const;

/** BENCH_NODE_LTS (a node binary), else NODE_LTS_VERSION fetched once under `dataDir`/tools; `off`, or a failed fetch: undefined. */
export function findLtsNode(dataDir: string): string | undefined {
  if (process.env.BENCH_NODE_LTS === 'off') return undefined;
  if (process.env.BENCH_NODE_LTS) return process.env.BENCH_NODE_LTS;
  return fetchNode(dataDir, NODE_LTS_VERSION);
}

/**
 * Node `version`'s binary, fetched once under `dataDir`/tools; undefined when the fetch failed (no registry at hand)
 * or what it unpacked is not that version.
 */
export function fetchNode(dataDir: string, version: string): string | undefined {
  const dir = join(dataDir, 'tools', `node-${version}`);
  const node = join(dir, 'package', 'bin', 'node');
  if (!existsSync(node)) {
    const spec = `node-${process.platform}-${process.arch}@${version}`;
    process.stderr.write(`bench: fetching ${spec} into bench/.data/tools\n`);
    mkdirSync(dir, { recursive: true });
    const packed = spawnSync('npm', ['pack', '--silent', spec, '--pack-destination', dir], { encoding: 'utf8' });
    const tarball = packed.stdout.trim().split('\n').pop();
    if (packed.status !== 0 || !tarball) return undefined;
    spawnSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
    rmSync(join(dir, tarball), { force: true });
  }
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() === `v${version}` ? node : undefined;
}
