/**
 * The oldest Bun the hooks run under: the one the whole suite passes with (package.json's devDependency, kept
 * equal by test/unit/meta.test.ts). Under an older Bun the launcher hands the run to Node (hooks/launch.ts), so
 * an old Bun found on the PATH never decides a verdict. Apart from the hook table so the launcher links these
 * lines alone.
 */
export const BUN_FLOOR = '1.4.4';

/** `version` (the running Bun's: "1.4.4", "1.5.0-canary.3") is older than BUN_FLOOR; an unreadable one is. */
export function bunTooOld(version: string): boolean {
  const have = version.split(/[.-]/, 3);
  const floor = BUN_FLOOR.split('.').map(Number);
  for (let i = 0; i < floor.length; i += 1) {
    const part = have[i];
    if (part === undefined || !/^\d+$/.test(part)) return true;
    if (Number(part) !== floor[i]) return Number(part) < (floor[i] as number);
  }
  return false;
}
