/**
 * `path.join`, without its normalising where there is nothing to normalise. Node's join walks the whole path
 * character by character in JavaScript: in a hook, run by the interpreter, that is tens of thousands of instructions
 * a call, and a hook joins some 25 paths a run (~0.3 M instructions in all, bench/RESULTS.md). Absolute parts that are
 * already normal (no `.` or `..` segment, no doubled or trailing `/`, so none empty either) join to what path.join
 * returns by putting a `/` between them; anything else, and a platform whose separator is not `/`, is path.join's.
 * Not for the launcher's modules (launch.ts, code-cache.ts, state-dir.ts): compiled from source on every run, this
 * function would cost the launcher more than it saves (meta.test.ts holds it under 3 KB).
 */
import * as path from 'node:path';

export function join(...parts: string[]): string {
  const first = parts[0];
  if (path.sep !== '/' || typeof first !== 'string' || first.charCodeAt(0) !== SLASH) return path.join(...parts);
  let joined = first;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part !== 'string') return path.join(...parts); // path.join's TypeError
    joined += `/${part}`;
  }
  return isNormal(joined) ? joined : path.join(...parts);
}

const SLASH = 0x2f;

/** An absolute path normalising leaves as it is: native searches, no loop of ours. */
function isNormal(absolute: string): boolean {
  return !(
    absolute.includes('//') ||
    absolute.includes('/./') ||
    absolute.includes('/../') ||
    absolute.endsWith('/.') ||
    absolute.endsWith('/..') ||
    (absolute.length > 1 && absolute.endsWith('/'))
  );
}
