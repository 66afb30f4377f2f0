/**
 * Validates policy file text with the zod schema. Its own bundle in the hook
 * (plugin/dist/policy-parse.cjs): required only when a policy file exists.
 */
import { checkPolicyRules } from '../core/policy.js';
import { formatPolicyIssues, policyFileSchema } from '../core/policy-schema.js';
import type { ReadPolicy } from './config.js';

export function parsePolicyText(text: string, path: string): ReadPolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', problems: [`${path}: not valid JSON (${(error as Error).message})`] };
  }
  const parsed = policyFileSchema().safeParse(json);
  if (!parsed.success) {
    const lines = formatPolicyIssues(parsed.error.issues);
    return { kind: 'invalid', problems: (lines.length ? lines : ['must be a JSON object']).map((line) => `${path}: ${line}`) };
  }
  const ruleProblems = checkPolicyRules(parsed.data);
  if (ruleProblems.length) return { kind: 'invalid', problems: ruleProblems.map((line) => `${path}: ${line}`) };
  return { kind: 'ok', file: parsed.data };
}
