/**
 * YAML parsing for ORCHESTRATION.yaml. Its own bundle in the hook
 * (plugin/dist/yaml-parse.cjs), required only by the hooks that read that file.
 */
import { parse, YAMLParseError } from 'yaml';

export type YamlResult = { ok: true; value: unknown } | { ok: false; error: string };

export function parseYamlText(text: string): YamlResult {
  try {
    // maxAliasCount bounds alias expansion ("billion laughs"); nothing in the file is ever executed.
    return { ok: true, value: parse(text, { maxAliasCount: 100, prettyErrors: true, uniqueKeys: false, logLevel: 'error' }) };
  } catch (error) {
    if (error instanceof YAMLParseError && error.linePos) {
      const [start] = error.linePos;
      const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      return { ok: false, error: `line ${start.line}, column ${start.col}: ${message}` };
    }
    return { ok: false, error: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}
