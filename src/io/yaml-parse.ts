/**
 * YAML parsing for ORCHESTRATION.yaml. Its own bundle in the hook
 * (plugin/dist/yaml-parse.cjs), required only by the hooks that read that file.
 */
import { parse, YAMLParseError } from 'yaml';
import { expandedSizeOver } from '../core/json-cap.js';
import { MAX_YAML_EXPANDED_CHARS } from '../core/limits.js';

export type YamlResult = { ok: true; value: unknown } | { ok: false; error: string };

export function parseYamlText(text: string): YamlResult {
  try {
    // Nothing in the file is ever executed.
    // maxAliasCount bounds how many aliases; the expanded size bounds what they make (a few aliases of a large
    // mapping are within any count and still expand a 1.5 MB file to 90 MB of JSON).
    const value: unknown = parse(text, { maxAliasCount: 100, prettyErrors: true, uniqueKeys: false, logLevel: 'error' });
    if (expandedSizeOver(value, MAX_YAML_EXPANDED_CHARS))
      return { ok: false, error: `its aliases expand it past ${MAX_YAML_EXPANDED_CHARS.toLocaleString('en-US')} characters` };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof YAMLParseError && error.linePos) {
      const [start] = error.linePos;
      const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      return { ok: false, error: `line ${start.line}, column ${start.col}: ${message}` };
    }
    return { ok: false, error: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}
