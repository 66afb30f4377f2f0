/** The library entry: the guard as an Agent SDK hook (see sdk.ts). */
export { ceilingGuardEnv, createCeilingGuard, type CeilingDecision, type CeilingGuardOptions } from './sdk.js';
export type { ToolAction } from './core/policy.js';
