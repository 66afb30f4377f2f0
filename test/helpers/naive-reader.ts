/** The reference the backward reader must agree with: every line from the newest, parsed whole, the first `classify` settles on. */
export function naiveNewestFirst<T>(content: string, classify: (record: unknown) => T | undefined): T | undefined {
  const lines = content.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    let record: unknown;
    try {
      record = JSON.parse(lines[i]!);
    } catch {
      continue;
    }
    const found = classify(record);
    if (found !== undefined) return found;
  }
  return undefined;
}
