// Generated from POLICY_FIELDS (policy-fields.ts) by test/unit/policy.test.ts: `npx vitest run test/unit/policy.test.ts -u`
// writes it again. Do not edit by hand: the test fails when this file and the field table differ.

/**
 * The merge every policy resolution starts from (policy.ts defaultMerge), as JSON text: each top-level key in field
 * order with its default (null when it has none), and each flat key's source, `default`.
 */
export const DEFAULT_MERGE_JSON =
  '{"policy":{"enabled":true,"strict":false,"ceilingPct":40,"window":null,"tools":{"Agent":"auto","Task":"auto","Skill":"auto","Workflow":"auto"},"recoverySkills":["context-summarization","context-loading-protocol","continue","review-summary","session-review"],"tiers":{"warningPct":70,"criticalPct":80,"emergencyPct":88},"maxScanBytes":67108864,"stateDir":null,"debug":false,"monitor":true,"orchestrationFile":"ORCHESTRATION.yaml","resumptionStaleMinutes":30,"bridgeMaxAgeMinutes":1440},"sources":{"enabled":{"layer":"default"},"strict":{"layer":"default"},"ceilingPct":{"layer":"default"},"tools.Agent":{"layer":"default"},"tools.Task":{"layer":"default"},"tools.Skill":{"layer":"default"},"tools.Workflow":{"layer":"default"},"recoverySkills":{"layer":"default"},"tiers.warningPct":{"layer":"default"},"tiers.criticalPct":{"layer":"default"},"tiers.emergencyPct":{"layer":"default"},"maxScanBytes":{"layer":"default"},"debug":{"layer":"default"},"monitor":{"layer":"default"},"orchestrationFile":{"layer":"default"},"resumptionStaleMinutes":{"layer":"default"},"bridgeMaxAgeMinutes":{"layer":"default"}}}';

/** The top-level keys without a default: null in the text, undefined in a policy. */
export const UNSET_POLICY_KEYS: readonly string[] = ['window', 'stateDir'];
