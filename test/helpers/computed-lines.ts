/** Finds a NaN, Infinity or undefined that our arithmetic printed into a template, while input text may say "NaN" freely. */

/**
 * Lines that hold only what the templates compute (a fill, a count, a numbering). They are known by their
 * label at the start of a line: input text never starts one, since sanitizeText flattens it onto its line.
 */
const COMPUTED = [
  /^PRE-COMPACTION FILL: .*$/gm,
  /^COMPACTION EVENT: .*$/gm,
  /^- Context fill at interruption: .*$/gm,
  /^- Compaction events in previous session: .*$/gm,
  /^\S+\. \[PRIORITY [^\]]*\]/gm,
];
/** "- (N more …)" looks like a list item, so it is ours only when no input string reads the same. */
const OVERFLOW = /^- \((.*) more in the resumption section\)$/gm;
const NOT_A_NUMBER = /NaN|Infinity|undefined/;

/** The computed lines of `text` that print something other than a number; `input` is what the template was given. */
export function misprintedNumbers(text: string, input: unknown): string[] {
  const computed = COMPUTED.flatMap((pattern) => text.match(pattern) ?? []);
  const given = JSON.stringify(input) ?? '';
  const overflow = [...text.matchAll(OVERFLOW)].filter((m) => !/^\d+$/.test(m[1]!) && !given.includes(m[0].slice(2)));
  return [...computed.filter((line) => NOT_A_NUMBER.test(line)), ...overflow.map((m) => m[0])];
}
