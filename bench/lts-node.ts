/**
 * The current LTS line's Node for the benches, beside the machine's own: a user installing Node today gets it,
 * and it starts and loads code differently from an older one. From the npm registry (the `node` package's
 * platform binaries, node-<platform>-<arch>), unpacked once into bench/.data/tools.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const NODE_LTS_VERSION = '26.12.1';

/** BENCH_NODE_LTS (a node binary), else NODE_LTS_VERSION fetched once under `dataDir`/tools; `off`, or a failed fetch: undefined. */
export function findLtsNode(dataDir: string): string | undefined {
  if (process.env.BENCH_NODE_LTS === 'off') return undefined;
  if (process.env.BENCH_NODE_LTS) return process.env.BENCH_NODE_LTS;
  const dir = join(dataDir, 'tools', `node-${NODE_LTS_VERSION}`);
  const node = join(dir, 'package', 'bin', 'node');
  if (!existsSync(node)) {
    const spec = `node-${process.platform}-${process.arch}@${NODE_LTS_VERSION}`;
    process.stderr.write(`bench: fetching ${spec} into bench/.data/tools\n`);
    mkdirSync(dir, { recursive: true });
    const packed = spawnSync('npm', ['pack', '--silent', spec, '--pack-destination', dir], { encoding: 'utf8' });
    const tarball = packed.stdout.trim().split('\n').pop();
    if (packed.status !== 0 || !tarball) return undefined;
    spawnSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
    rmSync(join(dir, tarball), { force: true });
  }
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() === `v${NODE_LTS_VERSION}` ? node : undefined;
}
