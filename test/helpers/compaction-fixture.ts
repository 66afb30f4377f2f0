/** One work state for the compaction tests (black-box and end-to-end): what was recorded, and a summary that drops part of it. */
export const NEXT_STEP = 'Register post-compact in hooks.json and run the e2e suite';

export const ORCHESTRATION = `resumption:
  current_phase: 4
  current_phase_name: Wiring
  current_activity: registering the PostCompact hook
  next_step: ${NEXT_STEP}
  decisions:
    - id: D-7
      decision: Keep the summary in its own file beside the checkpoint
  files_in_flight:
    - src/hooks/post-compact.ts
`;

/** The summariser's answer: it keeps the phase and the decision, and drops the next step and the file in flight. */
export const SUMMARY =
  'Summary:\n1. Current Work: Phase 4 (Wiring), registering the PostCompact hook.\n2. Decisions: D-7 keep the summary in its own file beside the checkpoint.';
