import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Options } from 'tsup';
import { minify as terserMinify } from 'terser';
import ts from 'typescript';
import { ENTRY_NAMES, entryBundleFile, renderPluginHooks } from './src/core/hook-table.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

// Everything is bundled (only the library leaves out the optional Agent SDK peer):
// the package installs with no runtime dependencies, and the plugin runs from a clone without `npm install`.
const shared: Options = {
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  define: { PACKAGE_VERSION: JSON.stringify(version) },
  sourcemap: false,
  clean: false,
  // ASCII only (non-ASCII escaped, regular expressions included): one non-ASCII character makes V8 hold the
  // whole bundle's source as a two-byte string, decoded on every hook run.
  esbuildOptions: (options) => {
    options.charset = 'ascii';
  },
};

/**
 * One require() per Node built-in in a bundle: esbuild emits a `require("fs")` for every module that imports
 * node:fs (30 in a hook bundle), each a trip through Node's module loader that made its functions hot enough
 * for V8 to compile them again (~0.6 M instructions of every hook run, measured). Each module's import of
 * node:fs or node:path resolves to one module of re-exports, so all of them share its one require().
 */
const ONE_REQUIRE_PER_BUILTIN: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'one-require-per-builtin',
  setup(build) {
    build.onResolve({ filter: /^node:(fs|path)$/ }, (args) => ({ path: args.path.slice('node:'.length), namespace: 'builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const names = Object.keys(createRequire(import.meta.url)(args.path) as object).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
      return { contents: `export { ${names.join(', ')} } from '${args.path}';`, loader: 'js' };
    });
  },
};

/** A rendered chunk's file name (`hook.cjs`), whatever the separator of its path. */
const chunkFile = (path: string) => path.split(/[\\/]/).pop() ?? '';

/**
 * The launchers (hook.cjs, statusline.cjs) are the one code compiled from source on every run, and V8 compiles a
 * function declaration lazily: the whole text is pre-parsed with the script, then each function parsed again and
 * compiled when first called. A function expression in parentheses is compiled with the script instead, in one
 * parse. Every top-level function of a launcher is rewritten so (`var f=(function(…){…});`, defined first, as a
 * declaration is hoisted): ~0.3 M instructions off every hook run on Node 26 (bench/RESULTS.md).
 */
const LAUNCHERS = new Set(['hook.cjs', 'statusline.cjs']);
const EAGER_LAUNCHERS: NonNullable<Options['plugins']>[number] = {
  name: 'eager-launchers',
  renderChunk(code, chunk) {
    const file = chunkFile(chunk.path);
    return LAUNCHERS.has(file) ? { code: compiledWithTheScript(code) } : undefined;
  },
};

/**
 * The bundles a hook run compiles from the code cache (hook-<name>.cjs, the status line's and the failed
 * launch's) are minified a second time by terser over the whole file (`toplevel`): esbuild minifies module by module,
 * terser then treats the bundle as one scope and drops what nothing reads (with `unused` and `reduce_vars`: without
 * either, or without `toplevel`, nothing changes). The guard's code cache shrinks (123.5 → 113.2 KB after an allow)
 * and with it the deserialising: on Node 26, allow −1.2 M instructions, warn and the monitor −0.6 M, block −0.35 to
 * −0.8 M, PreCompact −0.2 M (bench/RESULTS.md). The launchers keep esbuild's output (EAGER_LAUNCHERS); the zod and YAML
 * bundles, loaded rarely, stay as built.
 */
const TOPLEVEL_MINIFIED = new Set([...ENTRY_NAMES.map(entryBundleFile), 'launch-failed.cjs', 'statusline-main.cjs']);
const TERSER_TOPLEVEL: NonNullable<Options['plugins']>[number] = {
  name: 'terser-toplevel',
  async renderChunk(code, chunk) {
    const file = chunkFile(chunk.path);
    if (!TOPLEVEL_MINIFIED.has(file)) return undefined;
    const minified = await terserMinify(code, {
      ecma: 2020,
      module: false,
      toplevel: true,
      compress: { passes: 3, directives: false }, // directives: EAGER_DIRECTIVE reaches compiledEagerly
      mangle: { nth_identifier: { get: nthMangledName } },
      format: { ascii_only: true }, // as esbuild's charset: a non-ASCII character makes V8 hold the text as two-byte
    });
    if (minified.code === undefined) throw new Error(`terser left ${file} empty`);
    return { code: compiledEagerly(minified.code) };
  },
};

/**
 * The names terser gives what it renames, in order: single characters, then names V8 already holds as strings (the
 * property names of ECMAScript's and Node's built-ins), then two characters and more. A code cache names every
 * top-level binding a function reaches (its scope's info), and each name new to V8's string table is hashed and
 * inserted when the cache is read; once a run has added ~1,060 strings the table doubles and rehashes all of Node's
 * (~0.53 M instructions on Node 26.12.1). Terser's own two-character names were 112 of a guard run's new strings, and
 * took warn, block, PreCompact and the monitor over that line (bench/HISTORY.md, 2026-11-27). Fixed here, not read from
 * the building Node: the build must give the same bundles on any machine.
 */
const MANGLE_SINGLE = 'etnrisoaucldpfhmgbyvwkxjqzETNRISOAUCLDPFHMGBYVWKXJQZ$_';
const MANGLE_KNOWN: readonly string[] = [
  'at',
  'cp',
  'is',
  'of',
  'or',
  'rm',
  'abs',
  'add',
  'all',
  'and',
  'any',
  'big',
  'cos',
  'cwd',
  'env',
  'exp',
  'get',
  'has',
  'log',
  'map',
  'max',
  'min',
  'pid',
  'pop',
  'pow',
  'raw',
  'sep',
  'set',
  'sin',
  'sub',
  'sup',
  'tan',
  'xor',
  'acos',
  'arch',
  'argv',
  'asin',
  'atan',
  'bind',
  'bold',
  'call',
  'cbrt',
  'ceil',
  'copy',
  'cosh',
  'exec',
  'exit',
  'fill',
  'find',
  'flat',
  'from',
  'imul',
  'join',
  'keys',
  'kill',
  'link',
  'load',
  'log2',
  'name',
  'open',
  'ppid',
  'push',
  'race',
  'read',
  'seal',
  'sign',
  'sinh',
  'size',
  'some',
  'sort',
  'sqrt',
  'stat',
  'tanh',
  'test',
  'then',
  'trim',
  'wait',
  'abort',
  'acosh',
  'alloc',
  'apply',
  'argv0',
  'asinh',
  'atan2',
  'atanh',
  'blink',
  'chdir',
  'chmod',
  'chown',
  'clear',
  'close',
  'clz32',
  'every',
  'expm1',
  'fixed',
  'flags',
  'floor',
  'fstat',
  'fsync',
  'hypot',
  'log10',
  'log1p',
  'lstat',
  'match',
  'mkdir',
  'parse',
  'posix',
  'readv',
  'rmdir',
  'round',
  'shift',
  'slice',
  'small',
  'split',
  'stdin',
  'store',
  'title',
  'trunc',
  'umask',
  'watch',
  'win32',
  'write',
  'access',
  'anchor',
  'assign',
  'caller',
  'charAt',
  'concat',
  'config',
  'cpSync',
  'create',
  'dlopen',
  'dotAll',
  'equals',
  'exists',
  'fchmod',
  'fchown',
  'filter',
  'format',
  'freeze',
  'fround',
  'getDay',
  'getgid',
  'getuid',
  'hasOwn',
  'hrtime',
  'keyFor',
  'lchmod',
  'lchown',
  'length',
  'notify',
  'offset',
  'padEnd',
  'parent',
  'random',
  'reduce',
  'reject',
  'rename',
  'repeat',
  'report',
  'resize',
  'rmSync',
  'search',
  'setgid',
  'setuid',
  'source',
  'splice',
  'statfs',
  'stderr',
  'stdout',
  'sticky',
  'strike',
  'substr',
  'swap16',
  'swap32',
  'swap64',
  'toJSON',
  'unlink',
  'uptime',
  'utimes',
  'values',
  'writev',
  'binding',
  'compare',
  'compile',
  'dirname',
  'dispose',
  'entries',
  'extname',
  'flatMap',
  'forEach',
  'futimes',
  'getDate',
  'getInt8',
  'getTime',
  'getYear',
  'getegid',
  'geteuid',
  'indexOf',
  'inspect',
  'isArray',
  'italics',
  'lutimes',
  'message',
  'mkdtemp',
  'opendir',
  'ownKeys',
  'readdir',
  'release',
  'replace',
  'resolve',
  'reverse',
  'setDate',
  'setInt8',
  'setTime',
  'setYear',
  'setegid',
  'seteuid',
  'species',
  'symlink',
  'toFixed',
  'trimEnd',
  'unicode',
  'unshift',
  'valueOf',
  'version',
];
const MANGLE_FIRST = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$_';
const MANGLE_REST = `${MANGLE_FIRST}0123456789`;
/** The names nthMangledName gives before it generates any: all of them strings V8 holds from its start. */
export const MANGLE_HELD: ReadonlySet<string> = new Set([...MANGLE_SINGLE, ...MANGLE_KNOWN]);
const mangleMore: string[] = [];
let mangleCounter = 0;

/** The `n`th name (terser's `nth_identifier`): one name per `n`, none twice. */
export function nthMangledName(n: number): string {
  if (n < MANGLE_SINGLE.length) return MANGLE_SINGLE[n] as string;
  if (n - MANGLE_SINGLE.length < MANGLE_KNOWN.length) return MANGLE_KNOWN[n - MANGLE_SINGLE.length] as string;
  const k = n - MANGLE_SINGLE.length - MANGLE_KNOWN.length;
  while (mangleMore.length <= k) {
    // Bijective numbering: a first character, then any number of the rest.
    let rest = mangleCounter++;
    let name = MANGLE_FIRST[rest % MANGLE_FIRST.length] as string;
    rest = Math.floor(rest / MANGLE_FIRST.length);
    while (rest > 0) {
      rest -= 1;
      name += MANGLE_REST[rest % MANGLE_REST.length] as string;
      rest = Math.floor(rest / MANGLE_REST.length);
    }
    if (!MANGLE_HELD.has(name)) mangleMore.push(name);
  }
  return mangleMore[k] as string;
}

/** `code` with each top-level function declaration a parenthesized function expression, defined before anything else. */
export function compiledWithTheScript(code: string, which: (fn: ts.FunctionDeclaration) => boolean = () => true): string {
  const source = ts.createSourceFile('bundle.cjs', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const eager: string[] = [];
  let rest = '';
  let at = 0;
  let prologueEnd = 0;
  for (const statement of source.statements) {
    if (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression) && at === 0 && eager.length === 0) {
      prologueEnd = statement.end; // "use strict" stays first
      continue;
    }
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !statement.body || statement.asteriskToken || statement.modifiers)
      continue;
    if (!which(statement)) continue;
    const start = statement.getStart(source);
    rest += code.slice(Math.max(at, prologueEnd), start);
    eager.push(`var ${statement.name.text}=(${code.slice(start, statement.end).replace(/^function [\w$]+/, 'function')});`);
    at = statement.end;
  }
  rest += code.slice(Math.max(at, prologueEnd));
  return code.slice(0, prologueEnd) + eager.join('') + rest;
}

/**
 * The directive that asks for a function to be compiled with its bundle (or with the function around it), not
 * on its first call: a function only some transcripts reach (a line longer than one read, a time budget looked
 * at past the first read) would otherwise be missing from a code cache written by a run that never reached it,
 * and be compiled on every such run after (+0.86 M instructions on a 1 GB allow whose cache a short session
 * wrote, Node 26; bench/RESULTS.md).
 */
export const EAGER_DIRECTIVE = 'eager';

/**
 * `code` (terser's output, which keeps the directive) with every function whose body opens with EAGER_DIRECTIVE
 * compiled with what holds it: a top-level declaration rewritten as compiledWithTheScript does, an expression
 * (terser inlines a function called once) put in parentheses; the directive itself removed. Any other kind of
 * function carrying it fails the build: it would silently stay lazy.
 */
export function compiledEagerly(code: string): string {
  const marked = (fn: ts.FunctionLikeDeclaration) =>
    fn.body !== undefined &&
    ts.isBlock(fn.body) &&
    fn.body.statements[0] !== undefined &&
    ts.isExpressionStatement(fn.body.statements[0]) &&
    ts.isStringLiteral(fn.body.statements[0].expression) &&
    fn.body.statements[0].expression.text === EAGER_DIRECTIVE;
  const hoisted = compiledWithTheScript(code, marked);
  const source = ts.createSourceFile('bundle.cjs', hoisted, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits: Array<{ at: number; end: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && marked(node as ts.FunctionLikeDeclaration)) {
      if (!ts.isFunctionExpression(node))
        throw new Error(
          `"${EAGER_DIRECTIVE}" in a ${ts.SyntaxKind[node.kind]} (only a function declaration or expression can be compiled eagerly)`,
        );
      const directive = (node.body as ts.Block).statements[0] as ts.Statement;
      edits.push({ at: directive.getStart(source), end: directive.end, text: '' });
      if (!ts.isParenthesizedExpression(node.parent)) {
        edits.push({ at: node.getStart(source), end: node.getStart(source), text: '(' });
        edits.push({ at: node.end, end: node.end, text: ')' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = hoisted;
  for (const edit of edits.sort((a, b) => b.at - a.at || b.end - a.end)) out = out.slice(0, edit.at) + edit.text + out.slice(edit.end);
  if (out.includes(`"${EAGER_DIRECTIVE}"`)) throw new Error(`a "${EAGER_DIRECTIVE}" directive was left in the bundle`);
  return out;
}

/** plugin/hooks/hooks.json's description of the plugin. */
const PLUGIN_DESCRIPTION =
  'context-ceiling: gate Agent/Task/Skill/Workflow loads at a context ceiling measured from the session transcript, monitor context on every prompt, checkpoint before compaction, keep its summary and re-orient after it or after /clear';

/** The plugin payload's bundles (committed): what Claude Code runs, and the CLI beside them. */
const PAYLOAD = 'plugin/dist';

/** A self-contained, minified CommonJS bundle of the plugin payload (every entry its own file: no shared chunks). */
const PAYLOAD_CJS: Options = {
  ...shared,
  esbuildOptions: (options, context) => {
    shared.esbuildOptions?.(options, context);
    // The code-cached bundles export through CommonJS's `module` (hooks/main.ts exportBundle): said once, there, and
    // sound in a CommonJS bundle, which is all this payload is.
    options.logOverride = { ...options.logOverride, 'commonjs-variable-in-esm': 'silent' };
  },
  outDir: PAYLOAD,
  format: ['cjs'],
  esbuildPlugins: [ONE_REQUIRE_PER_BUILTIN],
  removeNodeProtocol: false, // node:fs and node:path reach ONE_REQUIRE_PER_BUILTIN (the others stay node:x, as written)
  outExtension: () => ({ js: '.cjs' }),
  minify: true,
  splitting: false,
};

/** One bundle per hook entry (hook-<name>.cjs, from src/hooks/entries/<name>.ts): an event compiles only its own code. */
const ENTRY_BUNDLES = Object.fromEntries(
  ENTRY_NAMES.map((name) => [entryBundleFile(name).replace(/\.cjs$/, ''), `src/hooks/entries/${name}.ts`]),
);

/** Bundles loaded on demand from beside the running one, never bundled into it. */
const ON_DEMAND = ['policy-parse', 'yaml-parse', 'launch-failed'];

export default defineConfig([
  {
    // The hook entry: CommonJS loads ~5 ms faster than ESM on Node 20, and a hook's budget is its start-up.
    ...PAYLOAD_CJS,
    // hook.cjs is a launcher of under 3 KB (compiled from source on every run) that loads the event's own bundle (hook-<name>.cjs) from V8's code
    // cache; launch-failed.cjs holds what it does when that fails, loaded only then;
    // policy-parse.cjs holds zod, required only when a policy file exists; yaml-parse.cjs holds the YAML
    // parser, run in a worker thread with a deadline (io/yaml-bounded.ts), never in the hook's own thread.
    entry: {
      hook: 'src/hook.ts',
      ...ENTRY_BUNDLES,
      'launch-failed': 'src/hooks/launch-failed.ts',
      'policy-parse': 'src/io/policy-parse.ts',
      'yaml-parse': 'src/io/yaml-parse.ts',
      statusline: 'src/statusline.ts',
      'statusline-main': 'src/statusline-main.ts',
    },
    plugins: [EAGER_LAUNCHERS, TERSER_TOPLEVEL],
    external: ON_DEMAND.map((name) => `./${name}.cjs`),
    noExternal: [new RegExp(`^(?!\\./(${ON_DEMAND.join('|')})\\.cjs$)`)],
    // The plugin's hooks.json comes from the one hook table (committed; a test keeps it equal).
    onSuccess: async () => writeFileSync('plugin/hooks/hooks.json', renderPluginHooks(PLUGIN_DESCRIPTION)),
  },
  {
    // The one CLI, self-contained beside the hook bundles: the npm bin, and what a plugin user runs
    // (`node <plugin>/dist/cli.cjs`, or `context-ceiling` through the plugin's bin/ inside Claude Code).
    // cli.cjs is a bin of a few KB that hands a replay to Bun where it is installed before it loads the CLI
    // itself, cli-main.cjs: the handover pays for no more of the CLI than it uses (cli/replay-runtime.ts).
    ...PAYLOAD_CJS,
    entry: { cli: 'src/cli.ts' },
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The CLI the bin loads, compiled from the code cache as the hook bundles are (so no `#!` line: the
    // loader wraps the bundle's text in a function, where one is a syntax error), and what a worker thread of
    // `replay` runs: only the scan and one session's analysis, so a worker starts without compiling the whole
    // CLI (bench/RESULTS.md, "Where replay's time goes").
    ...PAYLOAD_CJS,
    entry: { 'cli-main': 'src/cli-main.ts', 'replay-worker': 'src/replay-worker.ts' },
  },
  {
    // The library (createCeilingGuard for the Agent SDK), with type declarations; not part of the plugin.
    ...shared,
    outDir: 'dist',
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    dts: true,
    splitting: false,
    external: ['@anthropic-ai/claude-agent-sdk'],
    noExternal: [/^(?!@anthropic-ai\/claude-agent-sdk$)/],
    banner: {
      js: "import { createRequire as __ccCreateRequire } from 'node:module';\nconst require = __ccCreateRequire(import.meta.url);",
    },
  },
]);
