/** The library entry: the guard as an Agent SDK hook (src/sdk/ceiling-guard.ts). */
export { ceilingGuardEnv, createCeilingGuard, type CeilingDecision, type CeilingGuardOptions } from './sdk/ceiling-guard.js';
export type { ToolAction } from './core/policy.js';
