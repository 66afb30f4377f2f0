/** UserPromptSubmit: the <context-monitor> status, and the compaction alert when one is pending (the fallback channel). */
import { compactionPointTokens, resolveAutocompact } from '../core/autocompact.js';
import { isCompaction } from '../core/checkpoint-choice.js';
import { judgeStaleness, type StalenessFacts } from '../core/staleness.js';
import type { CompactionNumbers, MonitorSession } from '../core/monitor-text.js';
import { compactionScanBytes, judgeStuckAfterCompaction, markChanged, nextMonitorMark } from '../core/compaction-notice.js';
import type { Occupancy } from '../core/occupancy.js';
import { readMonitorMark, sessionStateDir, writeMonitorMark } from '../io/state.js';
import { readCompactionSince } from '../io/transcript.js';
import { readSessionHistory } from '../checkpoints/history.js';
import { orchestrationPath, readOrchestration } from '../io/orchestration.js';
import type { HookConfig } from '../runtime/hook-config.js';
import { monitorState, renderMonitor } from '../core/monitor-text.js';
import type { HookOutcome } from '../runtime/hook-io.js';
import { resolveRecoverySkill } from '../io/recovery-skill.js';
import { operatorRecoverySkills } from '../core/policy-layer.js';
import { additionalContext, guarded } from '../runtime/additional-context.js';
import { basename } from 'node:path';
import { type OwnEntry, ownCheckpoints, takeCompactionAlert } from '../checkpoints/alerts.js';
import { readWrittenRecords, recordsKey, rememberRecordsKey, type WrittenRecord } from '../checkpoints/provenance.js';
import { sanitizeId } from '../io/state.js';
import { takeFallbackNotice } from '../checkpoints/fallback.js';
import { readContext } from '../window/reading.js';
import type { HookHost } from '../runtime/host.js';
import { openHook } from '../runtime/open-hook.js';

export function runUserPromptSubmit(stdin: string | undefined, host: HookHost): HookOutcome {
  const opened = openHook(stdin, host);
  if (!opened.open) return opened.outcome;
  const { input, config } = opened;
  const { policy } = config;
  const parts: string[] = [];
  let compacted: CompactionNumbers | undefined;
  let stuck = false;
  let state: string | undefined;
  // This session's checkpoint records, read once (after the mark's records key is remembered) for both uses below.
  let sessionRecords: WrittenRecord[] | undefined;
  const records = () => (sessionRecords ??= readWrittenRecords(config.stateDir, config.projectDir, sanitizeId(input.session_id)));
  // And its checkpoints that still exist (an lstat for each, and for each one's markers), listed once for both too.
  let sessionEntries: OwnEntry[] | undefined;
  const entries = () => (sessionEntries ??= ownCheckpoints(records(), sanitizeId(input.session_id)));
  if (policy.monitor) {
    const reading = readContext(config, input.transcript_path, input.session_id, host.now());
    const autocompact = resolveAutocompact(host.env);
    const notice = guarded(() => takeCompactionNotice(config, input.transcript_path, input.session_id, reading.occupancy), config.debug);
    compacted = notice?.compacted;
    // Only over the ceiling is there advice to change (a tier the monitor judged, so occupancy was measured).
    const over = reading.tier !== 'NOMINAL' && reading.tier !== 'UNKNOWN';
    const stuckAfter = over ? judgeStuckAfterCompaction(notice?.newest, policy.ceilingPct, reading.window.tokens) : undefined;
    stuck = stuckAfter !== undefined;
    state = monitorState(reading);
    parts.push(
      renderMonitor({
        ...reading,
        ceilingPct: policy.ceilingPct,
        // /compact when no recovery skill is installed: a skill that is not there is a dead end
        recoverySkill:
          resolveRecoverySkill({
            projectDir: config.projectDir,
            home: host.home,
            env: host.env,
            recoverySkills: operatorRecoverySkills(config.loaded),
            runtimeDir: host.runtimeDir,
          }) ?? 'compact',
        orchestrationFile: basename(policy.orchestrationFile),
        autocompact,
        compactAt: compactionPointTokens(autocompact, reading.window.tokens),
        session: guarded(() => readMonitorSession(config, host.now(), entries()), config.debug),
        staleness: guarded(() => readResumptionStaleness(config, host), config.debug),
        compacted,
        stuck: stuckAfter,
        maxScanBytes: policy.maxScanBytes,
      }),
    );
  }
  const alert = guarded(() => takeCompactionAlert(config, input.session_id, records(), entries()), config.debug);
  if (alert) parts.push(alert);
  const fallback = guarded(() => takeFallbackNotice(config), config.debug);
  const monitor = compacted ? 'monitor-after-compaction' : stuck ? 'monitor-over-ceiling-after-compaction' : 'monitor';
  // What was said first (the run's kind: code-cache-write.ts), then what the monitor found: `monitor+compaction-alert nominal`.
  const said = [policy.monitor ? monitor : undefined, alert ? 'compaction-alert' : undefined].filter(Boolean).join('+');
  const reason = state === undefined ? said : `${said} ${state}`;
  return additionalContext('UserPromptSubmit', parts, reason, 'monitor-off', fallback);
}

/**
 * The compaction this session's monitor has not reported yet (once per compaction: core/compaction-notice.ts), with
 * Claude Code's numbers from its compact_boundary, and the session's newest compaction as far as the monitor knows
 * (found now, else remembered: after the next turn its boundary lies behind what the occupancy read reaches). The
 * mark is written before anything is reported, so a state directory that cannot remember reports nothing rather
 * than the same compaction on every prompt.
 */
function takeCompactionNotice(
  config: HookConfig,
  transcriptPath: string | undefined,
  sessionId: string,
  occupancy: Occupancy,
): { compacted: CompactionNumbers | undefined; newest: CompactionNumbers | undefined } | undefined {
  if (transcriptPath === undefined) return undefined;
  const dir = sessionStateDir(config.stateDir, sessionId);
  const prior = readMonitorMark(dir);
  if (prior?.records) rememberRecordsKey(prior.records);
  const newestIsBoundary =
    occupancy.kind === 'unknown-since-compaction' || (occupancy.kind === 'measured' && occupancy.source === 'compaction');
  const found = readCompactionSince(
    transcriptPath,
    (fileSize) => compactionScanBytes(prior, fileSize, newestIsBoundary, config.policy.maxScanBytes),
    { timeUp: config.timeUp },
  );
  const compacted = found.compaction && {
    trigger: found.compaction.trigger,
    preTokens: found.compaction.preTokens,
    postTokens: found.compaction.postTokens,
  };
  // The project's records key goes with the mark: this session's later prompts read their checkpoints without hashing.
  const next = nextMonitorMark(prior, { compaction: compacted, fileSize: found.fileSize }, recordsKey(config.projectDir));
  if (markChanged(prior, next)) writeMonitorMark(dir, next);
  if (compacted)
    config.debug(
      `compaction not yet reported: ${compacted.trigger ?? 'unknown'} ${compacted.preTokens ?? '?'} -> ${compacted.postTokens ?? '?'}`,
    );
  return { compacted, newest: next.lastCompaction };
}

/**
 * Seed 004's per-prompt fields from the session's checkpoints: compactions so far, the newest checkpoint and its age.
 * `entries`: ours only (ownCheckpoints), wherever they went (the private fallback too): a file in the tree under this
 * session's name is not ours to count.
 */
function readMonitorSession(config: HookConfig, now: Date, entries: readonly OwnEntry[]): MonitorSession {
  const { facts, unread } = readSessionHistory(entries, config.timeUp);
  const last = facts.at(-1);
  const written = last?.timestamp === undefined ? Number.NaN : Date.parse(last.timestamp);
  return {
    compactions: facts.filter(isCompaction).length,
    atLeast: unread > 0,
    last: last && {
      id: last.id,
      trigger: last.trigger,
      ageSeconds: Number.isFinite(written) ? Math.max(0, (now.getTime() - written) / 1000) : undefined,
    },
  };
}

/** Seed 003 L4: the orchestration file's resumption staleness, only when the project keeps one. */
function readResumptionStaleness(config: HookConfig, host: HookHost): StalenessFacts | undefined {
  const read = readOrchestration(orchestrationPath(config.projectDir, config.policy.orchestrationFile), host.parseYaml, config.projectDir);
  if (read.status === 'missing') return undefined;
  if (read.status === 'unavailable')
    return read.yamlError !== undefined ? { kind: 'unparseable', error: read.yamlError } : { kind: 'no-resumption' };
  return judgeStaleness(read.resumption ?? undefined, host.now(), config.policy.resumptionStaleMinutes);
}
