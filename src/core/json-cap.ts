/**
 * Bounded output from unbounded input: a parsed document (YAML aliases make a small file a huge tree)
 * measured and copied as plain JSON within a size budget, with a note of everything cut.
 */

export type JsonCapLimits = {
  /** Longest string kept, in characters. */
  maxString: number;
  /** Most entries kept of one list or mapping. */
  maxItems: number;
  /** Deepest nesting kept. */
  maxDepth: number;
  /** Characters the whole copy may take, about as JSON.stringify(…, null, 2) writes it. */
  maxTotal: number;
};

/** The copy, and one note per cut (`resumption.notes: 120,000 characters, kept 4,000`). */
export type CappedJson = { value: unknown; cuts: string[] };

/** What a scalar, a key or a level of indentation costs besides its text: quotes, colon, comma, line break. */
const ENTRY_OVERHEAD = 8;

/**
 * How many characters `value` takes as JSON once every shared reference (a YAML alias) is written out,
 * counted only up to `limit`: the walk stops as soon as the limit is passed, so its cost is bounded by
 * the limit, never by the expansion. Cycles count as over the limit.
 */
export function expandedSizeOver(value: unknown, limit: number): boolean {
  let total = 0;
  const path = new Set<object>();
  const visit = (node: unknown): boolean => {
    total += ENTRY_OVERHEAD;
    if (typeof node === 'string') total += node.length;
    else if (node !== null && typeof node === 'object' && !(node instanceof Date)) {
      if (path.has(node)) return true;
      path.add(node);
      for (const [key, child] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
        if (typeof key === 'string') total += key.length;
        if (total > limit || visit(child)) return true;
      }
      path.delete(node);
    }
    return total > limit;
  };
  return visit(value);
}

/**
 * Copy `value` as plain JSON (dates as ISO strings; functions, undefined and the like left out) within
 * `limits`. Strings are cut to maxString, lists and mappings to maxItems, nesting to maxDepth. Within a
 * mapping, scalars come first and each nested list or mapping gets a fair share of what is left, so one
 * huge entry cannot crowd out its short siblings (a next step beside pages of notes); what no longer fits
 * is left out. Every cut is named in `cuts` by its path.
 */
export function capJson(value: unknown, limits: JsonCapLimits, name = '(root)'): CappedJson {
  const cuts: string[] = [];
  /** The copy of `node` and the characters it took, spending at most `budget`. */
  const copy = (node: unknown, path: string, depth: number, budget: number): [unknown, number] => {
    const overhead = ENTRY_OVERHEAD + 2 * depth;
    if (typeof node === 'string') {
      const kept = Math.max(0, Math.min(node.length, limits.maxString, budget - overhead));
      if (kept < node.length) cuts.push(`${path}: ${node.length} characters, kept ${kept}`);
      return [kept < node.length ? node.slice(0, kept) : node, overhead + kept];
    }
    if (typeof node === 'number') return [Number.isFinite(node) ? node : null, overhead];
    if (typeof node === 'boolean' || node === null) return [node, overhead];
    if (node instanceof Date) return [Number.isNaN(node.getTime()) ? null : node.toISOString(), overhead + 24];
    if (typeof node !== 'object') return [undefined, 0];
    if (depth >= limits.maxDepth) {
      cuts.push(`${path}: nested deeper than ${limits.maxDepth} levels, left out`);
      return [null, overhead];
    }
    const list = Array.isArray(node);
    const entries: Array<[string, unknown]> = list ? node.map((child, index) => [String(index), child]) : Object.entries(node);
    const nested = (entry: [string, unknown]) => entry[1] !== null && typeof entry[1] === 'object' && !(entry[1] instanceof Date);
    const ordered = list ? entries : [...entries.filter((e) => !nested(e)), ...entries.filter(nested)];
    let used = overhead;
    let left = ordered.filter(nested).length;
    const kept: Array<[string, unknown]> = [];
    for (const [key, child] of ordered) {
      if (kept.length >= limits.maxItems || used >= budget) {
        const why = kept.length >= limits.maxItems ? `more than ${limits.maxItems} entries` : 'over the size cap';
        cuts.push(`${path}: ${entries.length - kept.length} of ${entries.length} entries left out (${why})`);
        break;
      }
      const keyText = list ? key : key.slice(0, limits.maxString);
      const label = list ? `${path}[${key}]` : `${path}.${key.slice(0, 60)}`;
      const isNested = nested([key, child]);
      const room = budget - used - keyText.length;
      const share = isNested ? Math.floor(room / Math.max(1, left--)) : room;
      const [value, cost] = copy(child, label, depth + 1, share);
      used += cost + (list ? 0 : keyText.length);
      if (value !== undefined) kept.push([keyText, value]);
    }
    return [list ? kept.map(([, child]) => child) : Object.fromEntries(kept), used];
  };
  return { value: copy(value, name, 0, limits.maxTotal)[0], cuts };
}
