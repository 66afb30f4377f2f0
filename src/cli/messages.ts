/**
 * Every sentence the CLI commands say to people, in one table looked up by id (STYLE.md point 2); the
 * larger topics keep theirs in messages-<topic>.ts, spread in here.
 * Advice the guard also gives (stating the window) is reused from core/messages.ts, never rewritten.
 */
import { AUTOCOMPACT_PCT_ENV } from '../core/autocompact.js';
import { BUN_FLOOR } from '../core/bun-floor.js';
import { STATE_THE_WINDOW, STATE_THE_WINDOW_ADVICE, WINDOW_PROVEN_WRONG } from '../core/guard-text.js';
import { CHECKPOINT_CLEAN_MESSAGES } from './messages-checkpoints.js';
import { describeFailure } from '../io/last-error.js';
import { CONFIG_WRITE_MESSAGES } from './messages-config.js';

const CLI_MESSAGES = {
  // main and every command's argument checks
  'needs-subcommand': (d: { command: string; choices: string }) => `${d.command} needs a subcommand: ${d.choices}`,
  'unknown-subcommand': (d: { command: string; sub: string }) => `unknown ${d.command} subcommand "${d.sub}"`,
  'file-unreadable': (d: { path: string; code: string }) => `${d.path}: cannot be read (${d.code})`,
  'unknown-option': (d: { option: string }) => `unknown option ${d.option}`,
  'flag-repeated': (d: { flag: string }) => `--${d.flag} given more than once`,
  'flag-needs-value': (d: { flag: string }) => `--${d.flag} needs a value`,
  'window-flag-invalid': (d: { got: string }) => `--window takes a whole number of tokens, at least 1000 (got ${JSON.stringify(d.got)})`,
  'unexpected-argument': (d: { arg: string | undefined }) => `unexpected argument ${JSON.stringify(d.arg)}`,

  // doctor
  'doctor.config-invalid-fix': () => 'correct the file (context-ceiling config validate shows every problem)',
  'doctor.config-warning-fix': () => 'correct or unset the variable',
  'doctor.config-valid': (d: { files: string }) => `valid (${d.files || 'defaults and environment only'})`,
  'doctor.strict-assumed': (d: { from: string }) =>
    `strict mode (${d.from}) on an assumed window: strict blocks nothing until the window is known`,
  'doctor.strict-assumed-fix': () => `state it: ${STATE_THE_WINDOW} (install --window N writes it), or run the status line`,
  'doctor.window-known': (d: { tokens: string; from: string; basis: string }) => `${d.tokens} tokens (${d.from})${d.basis}`,
  'doctor.window-assumed': (d: { tokens: string; why: string; basis: string }) =>
    `${d.tokens} tokens, assumed${d.why}${d.basis}: the ceiling only warns`,
  'doctor.window-assumed-fix': () => STATE_THE_WINDOW_ADVICE,
  'doctor.window-per-model': () => "each session's window comes from its model, as Claude Code's own model table gives it",
  'doctor.window-basis': (d: { session: string }) => ` for session ${d.session}`,
  'doctor.compact-default': () => 'Claude Code compacts at its own default point (not overridden)',
  'doctor.compact-strict': () =>
    'strict mode, and Claude Code compacts only near the full window: in an unattended session a block lasts until then',
  'doctor.compact-strict-fix': () => `set ${AUTOCOMPACT_PCT_ENV} at or just above the ceiling (context-ceiling install --strict does)`,
  'doctor.state-ok': (d: { dir: string }) => `${d.dir} is private (0700) and yours`,
  'doctor.state-absent': (d: { dir: string }) => `${d.dir} will be created (0700) at first use`,
  'doctor.state-refused': (d: { dir: string; why: string }) => `${d.dir} ${d.why}: the hooks keep no state there (warnings repeat)`,
  'doctor.state-why-link': () => 'is a symlink',
  'doctor.state-why-not-dir': () => 'is not a directory',
  'doctor.state-why-owner': (d: { uid: number }) => `belongs to uid ${d.uid}`,
  'doctor.state-why-mode': (d: { mode: string }) => `is open to other users (mode ${d.mode})`,
  'doctor.checkpoint-folders-many': (d: { count: number; more: boolean; folder: string }) =>
    `${d.count.toLocaleString('en-US')}${d.more ? '+' : ''} sessions' checkpoint folders in ${d.folder}: every session start looks through each of them, so it slows as they grow`,
  'doctor.checkpoint-folders-fix': () => 'context-ceiling checkpoints clean --older-than 30d (with --dry-run first to see what would go)',
  'doctor.state-fix': () => 'remove it, or point DEV_TEAM_CONTEXT_STATE_DIR at a directory only you own',
  'doctor.node-ok': (d: { version: string }) => `Node ${d.version}`,
  'doctor.node-old': (d: { version: string }) => `Node ${d.version} is too old`,
  'doctor.node-fix': () => 'install Node.js 20 or newer',
  'doctor.settings-broken-fix': () => 'repair the file; Claude Code ignores it as it is',
  'doctor.plugin-folder': (d: { id: string; label: string; folder: string; runner: string }) =>
    `plugin ${d.id} enabled in ${d.label}: its hooks run from ${d.folder}, in the folder its marketplace was added from (keep it there), by ${d.runner}`,
  'doctor.plugin-copy': (d: { id: string; label: string; folder: string; runner: string }) =>
    `plugin ${d.id} enabled in ${d.label}: its hooks run from Claude Code's copy, ${d.folder}, by ${d.runner}`,
  'doctor.runner-unknown-bun': (d: { bun: string }) => `${d.bun}, which did not tell its Bun version`,
  'doctor.runner-old-bun': (d: { bun: string; version: string; floor: string }) =>
    `Node (${d.bun} is Bun ${d.version}, older than ${d.floor}: each hook hands its run to Node)`,
  'doctor.plugin-missing': (d: { id: string; label: string; missing: string }) =>
    `plugin ${d.id} enabled in ${d.label}, but ${d.missing} is gone: Claude Code skips the plugin without a word`,
  'doctor.plugin-folder-fix': (d: { id: string; marketplace: string }) =>
    `put the folder back, or add the marketplace again from where it is now: claude plugin marketplace remove ${d.marketplace}; claude plugin marketplace add <folder>; claude plugin install ${d.id}`,
  'doctor.plugin-copy-fix': (d: { marketplace: string }) => `claude plugin marketplace update ${d.marketplace}`,
  'doctor.plugin-not-installed': (d: { id: string; label: string; records: string }) =>
    `plugin ${d.id} enabled in ${d.label}, but Claude Code has no record of it or its marketplace in ${d.records}: its hooks do not run`,
  'doctor.plugin-not-installed-fix': (d: { id: string }) =>
    `claude plugin marketplace add <git URL or folder of context-ceiling>; claude plugin install ${d.id}`,
  'doctor.no-hooks': () => 'no context-ceiling hooks in the project, local or user settings, and no context-ceiling plugin enabled',
  'doctor.no-hooks-fix': () => 'run context-ceiling install (or install the repository as a Claude Code plugin)',
  'doctor.runtime-absent': (d: { label: string; scope: string; dirs: string }) =>
    `${d.label} (${d.scope}) runs ${d.dirs}/hook.cjs, which does not exist`,
  'doctor.runtime-broken': (d: { label: string; scope: string; dir: string; problem: string }) =>
    `${d.label} (${d.scope}) runs ${d.dir}, which does not work (${d.problem}): its hooks let everything through`,
  'doctor.plugin-broken': (d: { id: string; folder: string; problem: string }) =>
    `plugin ${d.id} runs from ${d.folder}, which does not work (${d.problem}): its hooks let everything through`,
  'doctor.last-error': (d: { at: string; event: string; version: string; error: string }) =>
    `the ${describeFailure(d.event).what} failed at ${d.at} (version ${d.version}) and ${describeFailure(d.event).after}: ${d.error}`,
  'doctor.last-error-fix': (d: { path: string }) =>
    `fix what it names (a runtime file missing or broken: run install again), then remove ${d.path}`,
  'doctor.runtime-missing': (d: { files: string }) => `${d.files} missing`,
  'doctor.runtime-not-run': (d: { what: 'hooks' | 'status line' | 'plugin'; id?: string; where: string; dir: string; file: string }) =>
    `${d.what === 'plugin' ? `the hooks of plugin ${d.id}` : `the ${d.what}`} of ${d.where} run from ${d.dir}, whose ${d.file} is not this context-ceiling's own, so doctor did not run it (a project's settings can name any folder; Claude Code runs it once you trust the project)`,
  'doctor.plugin-not-run-fix': (d: { marketplace: string }) =>
    `check that folder is the context-ceiling you meant; once you add its marketplace yourself (claude plugin marketplace remove ${d.marketplace}; claude plugin marketplace add <folder>), doctor runs it`,
  'doctor.runtime-not-run-fix': (d: { flag: string }) =>
    `run context-ceiling install${d.flag} again to put this version's runtime there, or look at that folder yourself`,
  'doctor.runtime-unloadable': (d: { line: string }) => `its bundles do not load: ${d.line}`,
  'doctor.runtime-no-verdict': (d: { line: string }) => `hook.cjs states no verdict: ${d.line}`,
  'doctor.runtime-fails': (d: { line: string }) => `hook.cjs fails: ${d.line}`,
  'doctor.no-errors': () => 'no hook, status line or SDK guard has failed unexpectedly',
  'doctor.reinstall-fix': (d: { flag: string }) => `run context-ceiling install${d.flag} again`,
  'doctor.hooks-missing': (d: { label: string; scope: string; events: string }) => `${d.label} (${d.scope}) lacks ${d.events}`,
  'doctor.install-fix': (d: { flag: string }) => `run context-ceiling install${d.flag}`,
  'doctor.hooks-ok': (d: { label: string; scope: string; count: number; dirs: string; runner: string }) =>
    `${d.label} (${d.scope}): all ${d.count} events, runtime ${d.dirs}, run by ${d.runner}`,
  'doctor.statusline-ok': (d: { label: string; dir: string; runner: string }) =>
    `the status line of ${d.label} is ours, from ${d.dir}, run by ${d.runner}: it shows the fill`,
  'doctor.statusline-broken': (d: { label: string; dir: string; problem: string }) =>
    `the status line of ${d.label} is ours, from ${d.dir}, which does not work (${d.problem}): no fill shows, and the window Claude Code reports is not kept`,
  'doctor.statusline-no-line': (d: { line: string }) => `statusline.cjs printed no fill: ${d.line}`,

  // status
  'both-transcript-and-session': () => 'give --transcript or --session, not both',
  'cannot-read': (d: { path: string; reason: string }) => `cannot read ${d.path}: ${d.reason}`,
  'no-session-transcript': (d: { session: string; dir: string }) =>
    `no transcript for session ${d.session} under ${d.dir} or any other project`,
  'no-transcript-found': (d: { dir: string }) =>
    `no transcript found in ${d.dir}; run inside a Claude Code project or pass --transcript FILE`,
  warning: (d: { warning: string }) => `context-ceiling: warning: ${d.warning}`,
  'status.window': (d: { tokens: string; from: string; assumed: boolean; why: string }) =>
    d.assumed ? `${d.tokens} tokens, assumed${d.why}; ${STATE_THE_WINDOW_ADVICE}` : `${d.tokens} tokens (${d.from})`,
  'status.ceiling': (d: { pct: number; pctFrom: string; strict: boolean; strictFrom: string; enabled: boolean }) =>
    `${d.pct}% (${d.pctFrom}), ${d.strict ? 'strict: over the ceiling blocks' : 'warn mode'} (${d.strictFrom})${d.enabled ? '' : ' — guard disabled'}`,
  'report.events': (d: { blocks: string; warnings: string; session: string }) =>
    `The guard logged ${d.blocks} and ${d.warnings} for this session (context-ceiling events --session ${d.session}).`,
  'status.last-error': (d: { at: string; event: string; error: string }) =>
    `${describeFailure(d.event).what} failed at ${d.at} and ${describeFailure(d.event).after}: ${d.error} (context-ceiling doctor)`,
  'status.events': (d: { blocks: string; warnings: string; session: string }) =>
    `${d.blocks} and ${d.warnings} in this session (context-ceiling events --session ${d.session})`,
  'status.left': (d: { toCeiling: string; over: boolean; toCompaction: string; due: boolean; compactAt: string }) =>
    `${d.over ? `${d.toCeiling} over the ceiling` : `${d.toCeiling} to the ceiling`}; ${
      d.due
        ? `past Claude Code's compaction point (~${d.compactAt}): it compacts before its next request`
        : `${d.toCompaction} to Claude Code's compaction (~${d.compactAt})`
    }`,
  'status.guard-now': (d: { tools: string[] }) => `${[...d.tools, 'recovery skills: allow'].join(' · ')}`,
  'status.window-disproved': (d: { tokens: string; from: string }) =>
    `this session held more than the ${d.tokens}-token window (${d.from}), ${WINDOW_PROVEN_WRONG}; it is not judged against`,
  'status.occupancy-usage': (d: { tokens: string }) => `${d.tokens} tokens (latest main-thread turn)`,
  'status.occupancy-compaction': (d: { tokens: string }) => `${d.tokens} tokens (right after the last compaction)`,
  'status.unknown-since-compaction': () =>
    'unknown since compaction (no turn since the last compact_boundary, which carries no postTokens)',
  'status.unavailable-scan-cap': () => 'unknown (no usage within the scan cap)',
  'status.unavailable-no-usage': () => 'unknown (no assistant turn with usage yet)',
  'status.unavailable-unreadable': () => 'unknown (the transcript cannot be read)',
  'status.verdict-allow': (d: { messageId: string }) => `allow (${d.messageId})`,
  'status.verdict-assumed': (d: { kind: string }) => `${d.kind} (the window is assumed: never a block)`,

  // install and uninstall
  'install.one-scope': () => 'choose one of --project, --local, --user',
  'install.changed': (d: { dryRun: boolean; path: string; scope: string }) =>
    `context-ceiling: ${d.dryRun ? 'would change' : 'installed into'} ${d.path} (${d.scope})`,
  'install.unchanged': (d: { path: string; scope: string }) =>
    `context-ceiling: already installed in ${d.path} (${d.scope}); nothing changed`,
  'install.runtime-copied': (d: { dryRun: boolean; files: string; dir: string }) =>
    `${d.dryRun ? 'would copy' : 'copied'} runtime (${d.files}) to ${d.dir}`,
  'install.skill-written': (d: { dryRun: boolean; skill: string; path: string }) =>
    `${d.dryRun ? 'would write' : 'wrote'} the recovery skill /${d.skill}: ${d.path}`,
  'install.skill-foreign': (d: { path: string; skill: string }) =>
    `left alone: ${d.path} is a different skill named ${d.skill}; messages will name it as it is`,
  'install.runtime-auto': () => `the hooks run with Bun where \`bun\` ${BUN_FLOOR} or newer is on the PATH, else with Node`,
  'install.runtime-node': () => 'the hooks run with Node (--runtime node)',
  'install.runtime-invalid': (d: { got: string }) => `--runtime takes auto or node (got ${JSON.stringify(d.got)})`,
  'install.backup': (d: { path: string }) => `backup of the previous file: ${d.path}`,
  'install.autocompact-kept': (d: { pct: number }) => `${d.pct}% (your own ${AUTOCOMPACT_PCT_ENV}, kept: it is lower)`,
  'install.autocompact-set': (d: { pct: number }) => `${AUTOCOMPACT_PCT_ENV}=${d.pct}`,
  'install.autocompact-why': (d: {
    point: string;
    effective: string;
    ceilingPct: number;
    atCeiling: string;
    window: string;
    stated: boolean;
  }) =>
    `Claude Code compacts at ${d.point} of its effective ${d.effective}-token window, just above the ${d.ceilingPct}% ceiling ` +
    `(${d.atCeiling} of ${d.window} tokens${d.stated ? '' : ", the default model's window assumed: pass --window to state yours"}): ` +
    'after a block in an unattended session it compacts before the next request and the load then passes.',
  'install.settings-shape': (d: { path: string; problem: string }) => `${d.path}: ${d.problem}; the file was left unchanged`,
  'install.settings-symlink': (d: { path: string }) =>
    `${d.path} is a symlink; install does not write through it (edit its target yourself, or replace the link with a file); nothing was changed`,
  'install.settings-not-file': (d: { path: string }) => `${d.path} is not a regular file; nothing was changed`,
  'install.settings-not-json': (d: { path: string; reason: string }) =>
    `${d.path}: not valid JSON (${d.reason}); the file was left unchanged`,
  'install.settings-lossy': (d: { path: string; loss: string }) =>
    `${d.path}: ${d.loss}, which rewriting would lose; fix that first; the file was left unchanged`,
  'install.broken-symlink': (d: { path: string }) => `${d.path} is a broken symlink; nothing was changed`,
  'install.leaves-project': (d: { path: string; real: string }) =>
    `${d.path} leads out of the project (to ${d.real}); install writes only inside the project; nothing was changed`,
  'uninstall.changed': (d: { dryRun: boolean; path: string; scope: string }) =>
    `context-ceiling: ${d.dryRun ? 'would remove from' : 'removed from'} ${d.path} (${d.scope})`,
  'uninstall.unchanged': (d: { path: string; scope: string }) =>
    `context-ceiling: not installed in ${d.path} (${d.scope}); nothing changed`,
  'uninstall.runtime-removed': (d: { dryRun: boolean; files: string; dir: string }) =>
    `${d.dryRun ? 'would remove' : 'removed'} runtime files (${d.files}) from ${d.dir}`,
  'uninstall.runtime-kept': (d: { files: string; dir: string }) => `kept (not as install wrote them): ${d.files} in ${d.dir}`,
  'uninstall.skill-removed': (d: { dryRun: boolean; path: string }) =>
    `${d.dryRun ? 'would remove' : 'removed'} the recovery skill ${d.path}`,
  'uninstall.skill-kept': (d: { path: string }) => `kept ${d.path}: not the skill install wrote`,

  // checkpoints
  'checkpoints.show-needs-id': () => 'checkpoints show needs exactly one ID',
  'checkpoints.id-or-all': () => 'give an ID or --all, not both',
  'checkpoints.ack-needs-id': () => 'checkpoints ack needs an ID or --all',
  'checkpoints.no-such': (d: { id: string; known: string }) =>
    `no checkpoint ${d.id}${d.known ? `; known: ${d.known}` : ' (this project has none)'}`,
  'checkpoints.ambiguous': (d: { id: string; matches: string }) =>
    `${d.id} is ambiguous: ${d.matches}; give <session>/${d.id} or --session`,
  'checkpoints.none': () => 'No checkpoints in this project.',
  'checkpoints.trigger': (d: { type: string; instructions: string | null | undefined }) =>
    `${d.type}${d.instructions ? ` (instructions: ${d.instructions})` : ''}`,
  'checkpoints.resumption': (d: { path: string; status: string; error: string | null | undefined }) =>
    `${d.path} (${d.status}${d.error ? `: ${d.error}` : ''})`,
  'checkpoints.corrupt': () => 'corrupt: not a readable checkpoint (alerts show a generic re-orientation message)',
  'checkpoints.alert-heading': () => "The model's compaction alert for it:",
  'checkpoints.origin-ours': (d: { privateFallback: boolean }) =>
    `written by your sessions on this machine${d.privateFallback ? ', kept in the private fallback folder (the project’s could not be used)' : ''}`,
  'checkpoints.origin-found': (d: { privateFallback: boolean }) =>
    `found, not ours: not recorded as written by your sessions on this machine${d.privateFallback ? ' (in the private fallback folder)' : ''}`,
  'checkpoints.not-ours-never-shown': () =>
    'Never shown to the model: only checkpoints your sessions wrote on this machine are resumed (a repository can commit any file here).',
  'checkpoints.ack-failed': (d: { path: string }) => `cannot write the acknowledgement marker beside ${d.path}`,
  'checkpoints.nothing-to-ack': () => 'Nothing to acknowledge.',
  'checkpoints.acked': (d: { id: string; changed: boolean }) => `${d.id}: ${d.changed ? 'acknowledged' : 'already acknowledged'}`,

  // config
  'config.get-needs-key': () => 'config get needs exactly one KEY',
  'config.validate-one-file': () => 'config validate takes at most one FILE',
  'config.unknown-key': (d: { key: string; keys: string }) => `unknown key "${d.key}"; keys are ${d.keys}`,
  'config.policy-files': () => 'Policy files:',
  'config.settings-files': () => 'Claude Code settings (their "env" blocks override the process environment):',
  'config.not-found': (d: { path: string }) => `${d.path}: not found`,
  'config.file-ok': (d: { path: string }) => `${d.path}: ok`,
  'config.valid': () => 'configuration is valid',

  // report
  'report.needs-transcript': () => 'report needs a TRANSCRIPT',
  'report.width-invalid': () => '--width takes a number of columns from 10 to 1000',
  'report.cannot-write': (d: { path: string; reason: string }) => `cannot write ${d.path}: ${d.reason}`,
  'report.html-written': (d: { path: string }) => `HTML report written to ${d.path}`,
  'report.html-is-directory': (d: { path: string; example: string }) =>
    `--html ${d.path} is a directory; give a file name, e.g. ${d.example}`,
  'report.html-no-directory': (d: { path: string; dir: string }) => `--html ${d.path}: no such directory ${d.dir}`,

  // replay
  'replay.ceilings-invalid': (d: { got: string }) =>
    `--ceilings takes whole percents from 1 to 100, comma-separated (got ${JSON.stringify(d.got)})`,
  'replay.jobs-invalid': (d: { got: string }) => `--jobs takes a whole number of threads from 1 to 64 (got ${JSON.stringify(d.got)})`,
  'replay.runtime-invalid': (d: { got: string }) => `--runtime takes auto or node (got ${JSON.stringify(d.got)})`,
  'replay.worker-stopped': () => 'a replay worker stopped before every file was read',
  'replay.no-such-path': (d: { path: string }) => `${d.path}: no such file or directory`,
  'replay.replayed': (d: { sessions: string; bytes: string; seconds: string; rate: string; subagents: string; summarisers: string }) =>
    `Replayed ${d.sessions}, ${d.bytes} in ${d.seconds} s${d.rate}; ${d.subagents} and ${d.summarisers} not counted as sessions.`,
  'replay.window-entry': (d: { sessions: string; tokens: string; from: string; assumed: boolean }) =>
    `${d.sessions} at ${d.tokens} tokens (${d.from}${d.assumed ? '; warns only' : ''})`,
  'replay.windows': (d: { windows: string[]; sessions: string }) =>
    `Windows: ${d.windows.join('; ') || 'none'}. ${d.sessions} made calls the guard judges.`,
  'replay.compactions': (d: { count: number; sessions: string }) => `Compactions: ${d.count} in ${d.sessions}.`,
  'replay.peak': (d: { p50: string; p90: string; p99: string; max: string }) =>
    `Peak occupancy per session: p50 ${d.p50}  p90 ${d.p90}  p99 ${d.p99}  max ${d.max}`,
  'replay.no-measured-sessions': () => 'no measured sessions',
  'replay.recommend-protects': (d: {
    ceiling: number;
    caught: number;
    atRisk: number;
    room: number;
    loads: string;
    sessions: number;
    of: number;
    first: string;
    turnsAfter: string;
    tokensAfter: string;
    nearDone: number;
  }) =>
    `Recommended ceiling: ${d.ceiling}%, the highest here that still meets ${d.caught} of the ${d.atRisk} sessions that were compacted or peaked at 70% or more, early (its first gated call at ${d.room}% or less, median). In this history it would have gated ${d.loads} in ${d.sessions} of ${d.of} sessions, the first at ${d.first} (median); they went on for ${d.turnsAfter} (median) and ${d.tokensAfter} tokens in all after it (the work a summary first makes cheaper); ${d.nearDone} ended within 3 turns of it. Set it with: context-ceiling config set ceilingPct ${d.ceiling}`,
  'replay.recommend-too-late': (d: { ceiling: number; caught: number; atRisk: number; first: string; room: number }) =>
    `No candidate meets the sessions that were compacted or peaked at 70% or more early enough (at ${d.room}% or less, median). The lowest that meets any, ${d.ceiling}%, meets ${d.caught} of ${d.atRisk}, first at ${d.first}: try lower ceilings (--ceilings ${Math.max(1, d.ceiling - 20)},${Math.max(1, d.ceiling - 10)},${d.ceiling}).`,
  'replay.recommend-never': (d: { current: number; atRisk: number; withCalls: number; lowest: number }) =>
    d.atRisk === 0
      ? `No session here was compacted or peaked at 70% or more: no ceiling is needed for this history, so keep the current one (${d.current}%), or replay more sessions.`
      : d.withCalls === 0
        ? `No candidate ceiling gated any of the ${d.atRisk} sessions that were compacted or peaked at 70% or more (they loaded no agent or skill the guard judges): keep the current one (${d.current}%).`
        : `No candidate ceiling gated any of the ${d.atRisk} sessions that were compacted or peaked at 70% or more: ${d.withCalls === d.atRisk ? 'every load of theirs' : `${d.atRisk - d.withCalls} loaded nothing, and every load of the others`} that the guard judges came below the lowest candidate (${d.lowest}%), before the sessions filled up: keep the current one (${d.current}%).`,
  'events.since-invalid': (d: { got: string }) => `--since must be an ISO time or a span such as 30m, 2h, 1d (got ${d.got})`,
  'events.since': (d: { since: string }) => ` since ${d.since}`,
  'events.none': (d: { when: string }) => `context-ceiling: no warnings or blocks${d.when}.`,
  'events.summary': (d: { blocks: string; warnings: string; sessions: string; when: string; highest: string }) =>
    `context-ceiling: ${d.blocks} and ${d.warnings} in ${d.sessions}${d.when}${d.highest}.`,
  'events.highest': (d: { pct: string; window: string }) => `; highest ${d.pct} of ${d.window}`,
  'events.empty': () => 'No warnings or blocks recorded.',
  'replay.corrupt': (d: { files: string; lines: string; oversized: string }) =>
    `Corrupt: ${d.files}, ${d.lines} that did not parse, ${d.oversized} over 64 MiB skipped.`,

  // demo
  'demo.heading': () => 'context-ceiling demo: the PreToolUse guard on built-in sample transcripts',
  'demo.block': () => 'BLOCK (a deny decision)',
  'demo.exit': (d: { code: number | null }) => `exit ${d.code}`,
  'demo.warn': () => 'WARN (exit 0)',
  'demo.allow': () => 'allow (exit 0, no output)',
  'demo.defaults': () =>
    "Nothing configured: the window is the session's model's (Claude Code's own table), the ceiling 40%, warn mode unless a scenario sets strict.",

  // hook and main
  'hook.unknown-event': (d: { event: string }) => `unknown hook event ${JSON.stringify(d.event)}`,
  'main.unknown-command': (d: { name: string }) =>
    `context-ceiling: unknown command "${d.name}"\nRun context-ceiling --help for the list of commands.`,
  'main.unexpected-error': (d: { message: string }) => `context-ceiling: unexpected error: ${d.message}`,
  'main.cannot-write-output': (d: { reason: string }) => `context-ceiling: cannot write the output: ${d.reason}`,

  // where Claude Code's compaction point was set (doctor and status)
  'autocompact-set-in': (d: { origin: string }) => ` Set in ${d.origin}.`,

  // config set and unset, checkpoints clean
  ...CONFIG_WRITE_MESSAGES,
  ...CHECKPOINT_CLEAN_MESSAGES,
} satisfies Record<string, (data: never) => string>;

export type CliMessageId = keyof typeof CLI_MESSAGES;

/** The sentence `id` with its placeholders filled. */
export function cliMessage<Id extends CliMessageId>(id: Id, ...data: Parameters<(typeof CLI_MESSAGES)[Id]>): string {
  return (CLI_MESSAGES[id] as (d: unknown) => string)(data[0]);
}
