/** The environment variables the package reads, by name: one place, so a name is never spelt twice. */

/** The state directory's variable, on its own: the hook launcher reads only this one (the table costs every run to build). */
export const STATE_DIR_ENV = 'DEV_TEAM_CONTEXT_STATE_DIR';

/** Names of the environment variables. The seed's four names are kept exactly. */
export const ENV = {
  ceiling: 'DEV_TEAM_CONTEXT_CEILING',
  strict: 'DEV_TEAM_CONTEXT_STRICT',
  ceilingPct: 'DEV_TEAM_CONTEXT_CEILING_PCT',
  window: 'DEV_TEAM_CONTEXT_WINDOW',
  policy: 'DEV_TEAM_CONTEXT_POLICY',
  stateDir: STATE_DIR_ENV,
  debug: 'DEV_TEAM_CONTEXT_DEBUG',
  maxScanBytes: 'DEV_TEAM_CONTEXT_MAX_SCAN_BYTES',
  recoverySkills: 'DEV_TEAM_CONTEXT_RECOVERY_SKILLS',
  tools: 'DEV_TEAM_CONTEXT_TOOLS',
  warningPct: 'DEV_TEAM_CONTEXT_WARNING_PCT',
  criticalPct: 'DEV_TEAM_CONTEXT_CRITICAL_PCT',
  emergencyPct: 'DEV_TEAM_CONTEXT_EMERGENCY_PCT',
  monitor: 'DEV_TEAM_CONTEXT_MONITOR',
  orchestrationFile: 'DEV_TEAM_CONTEXT_ORCHESTRATION',
  resumptionStaleMinutes: 'DEV_TEAM_CONTEXT_RESUMPTION_STALE_MINUTES',
  bridgeMaxAgeMinutes: 'DEV_TEAM_CONTEXT_BRIDGE_MAX_AGE_MINUTES',
} as const;
