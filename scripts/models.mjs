#!/usr/bin/env node
/**
 * `npm run models [-- --bin PATH] [--check] [--table FILE]`: read the model catalog baked into a Claude Code binary and
 * write src/core/model-registry.generated.ts, or with --check say how the committed file differs from it.
 * Exit 0: written / equal. Exit 1: --check found differences (one line each). Exit 2: nothing written, one line why.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildTable, findCatalog, ModelsError } from './models/catalog.mjs';
import { claudeCodeBin, ROOT } from './models/client-bin.mjs';
import { CLIENT_PACKAGE, diffData, readTableFile, renderTableFile, TABLE_PATH, tableFileData } from './models/table-file.mjs';

const USAGE = 'usage: npm run models -- [--bin PATH] [--check] [--table FILE]';

function main(argv) {
  const args = parseFlags(argv);
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const bin = args.bin ? { path: resolve(args.bin), from: '--bin' } : claudeCodeBin();
  if (!existsSync(bin.path))
    throw new ModelsError(`no Claude Code binary at ${bin.path} (from ${bin.from}): pass --bin PATH, set CLAUDE_CODE_BIN, or npm ci`);
  const { catalog, version } = findCatalog(readFileSync(bin.path));
  checkPackageVersion(bin.path, version);
  const table = buildTable(catalog);
  const text = formatWithBiome(renderTableFile(table, version));
  const tablePath = resolve(args.table ?? join(ROOT, TABLE_PATH));
  const source = `${CLIENT_PACKAGE}@${version} (${bin.path})`;
  if (args.check) return check(tablePath, text, tableFileData(table, version), source);
  writeAtomically(tablePath, text);
  const aliases = Object.keys(table.aliases).length;
  process.stdout.write(`wrote ${relative(process.cwd(), tablePath)}: ${table.models.length} models, ${aliases} aliases, from ${source}\n`);
  return 0;
}

function parseFlags(argv) {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { bin: { type: 'string' }, check: { type: 'boolean' }, table: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    });
    return values;
  } catch (error) {
    throw new ModelsError(`${error.message} (${USAGE})`);
  }
}

/** A binary beside its npm package must be the release the package names: the header promises that version. */
function checkPackageVersion(binPath, version) {
  const manifest = join(dirname(binPath), '..', 'package.json');
  if (!existsSync(manifest)) return;
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  if (pkg.name === CLIENT_PACKAGE && pkg.version !== version)
    throw new ModelsError(`the binary says ${version} but ${manifest} says ${pkg.version}: reinstall ${CLIENT_PACKAGE}`);
}

/** The committed file is Biome's output, so the text we compare and write is too. */
function formatWithBiome(text) {
  const biome = join(ROOT, 'node_modules', '.bin', 'biome');
  const result = spawnSync(biome, ['format', `--stdin-file-path=${TABLE_PATH}`], { cwd: ROOT, input: text, encoding: 'utf8' });
  if (result.status !== 0)
    throw new ModelsError(`biome could not format the table: ${(result.stderr || String(result.error)).trim().split('\n')[0]}`);
  return result.stdout;
}

function check(tablePath, text, fresh, source) {
  const name = relative(process.cwd(), tablePath);
  if (!existsSync(tablePath)) throw new ModelsError(`${name} does not exist: run npm run models`);
  const committedText = readFileSync(tablePath, 'utf8');
  let differences;
  try {
    differences = diffData(readTableFile(committedText), fresh);
  } catch (error) {
    differences = [`the committed file cannot be read as data: ${error.message}`];
  }
  if (differences.length === 0 && committedText !== text) differences = ['the text differs from what npm run models writes (a hand edit?)'];
  if (differences.length === 0) {
    process.stdout.write(`${name} matches ${source}\n`);
    return 0;
  }
  process.stdout.write(`${name} differs from ${source}; run npm run models:\n${differences.map((line) => `  ${line}\n`).join('')}`);
  return 1;
}

/** Temp file, fsync, rename: an interrupted run leaves the old table, never half of a new one. */
function writeAtomically(path, text) {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ModelsError)) throw error;
  process.stderr.write(`models: ${error.message}\n`);
  process.exitCode = 2;
}
