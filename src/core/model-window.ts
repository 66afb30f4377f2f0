/**
 * A model id → the context window Claude Code gives it, from the client's own catalog (model-registry.generated.ts),
 * normalised as the client does it. Names like `vc`, `bB` are 2.1.331's minified JS (2.1.332: same code, other names).
 */
import { DEFAULT_WINDOW } from './limits.js';
import {
  REGISTRY_ALIASES,
  REGISTRY_BEST,
  REGISTRY_LARGEST_WINDOW,
  REGISTRY_MODEL_LINES,
  REGISTRY_PROVIDER_LINES,
} from './model-registry.generated.js';

/** Claude Code counts an id carrying `[1m]`, and a model id it does not know, as 1,000,000 tokens (2.1.331: `L_`, `YB`). */
export const CLIENT_1M_WINDOW = 1_000_000;

/** Longer strings are not read as model ids: real ones are under 64 characters, and Claude Code memoises ids only up to 256. */
export const MAX_MODEL_ID_CHARS = 256;

/** One catalog entry as the generated table holds it. */
export type RegistryModel = {
  readonly id: string;
  /** `null`: the entry has no context block; the client then counts DEFAULT_WINDOW (`Jv` → `BPt`). */
  readonly window: number | null;
  readonly maximumWindow: number | null;
  readonly native1m: boolean;
  readonly supports1mBeta: boolean;
  readonly supports1mSuffix: boolean;
};

/** Why a model's window is known. */
export type KnownBasis =
  | 'registry' // the catalog's window: the model has one (native 1M, or no 1M variant the client would opt into)
  | 'suffix' // the id's `[1m]` chose the 1M variant
  | 'client-default' // a catalog model without a context block: the client counts 200,000
  | '1m-disabled'; // CLAUDE_CODE_DISABLE_1M_CONTEXT: the client counts 200,000 for every model

export type ModelWindow =
  /** One window: verified, so strict may block on it. */
  | { kind: 'known'; id: string; tokens: number; basis: KnownBasis }
  /** `tokens` unless the session opted into the 1M variant, which the id did not say (`[1m]`, or the beta header). */
  | { kind: 'variants'; id: string; tokens: number; largest: number }
  /** Not in the catalog (`id` undefined: not a model id at all). `largest`: the most it could have; never judge below it. */
  | { kind: 'unknown'; id: string | undefined; largest: number };

export type ModelLookupOptions = {
  /**
   * The catalog's provider key, which decides the model an alias names: `first_party` (the default), `bedrock`,
   * `vertex`, `foundry`, `mantle`, `anthropic_aws`, `anthropic_google_cloud`, `gateway`.
   */
  provider?: string | undefined;
  /** `ANTHROPIC_DEFAULT_<ALIAS>_MODEL` by alias (`{sonnet: 'claude-sonnet-4-5'}`): replaces the catalog's choice (`Sw`, `fE`, `TG`). */
  aliasTargets?: Readonly<Record<string, string | undefined>> | undefined;
  /** Claude Code's CLAUDE_CODE_DISABLE_1M_CONTEXT is on (`zF`): no `[1m]`, no native 1M, every window 200,000. */
  disable1mContext?: boolean | undefined;
};

/** The catalog id (or, for a model it lacks, the client's canonical spelling) and whether the raw id asked for 1M. */
export type NormalizedModelId = { id: string; suffix1m: boolean };

const ALIASES: Readonly<Record<string, { default: string; perProvider: Readonly<Record<string, string>> }>> = REGISTRY_ALIASES;
const BEST: string | null = REGISTRY_BEST;

/**
 * The largest window any model could have: the catalog's largest (window or maximum window), and at least the
 * 1,000,000 Claude Code counts for any `[1m]` id and for an id it does not know (`YB`). An unknown model is never
 * judged below it: no percentage over 100 %, no "stop loading" under the ceiling of this window.
 */
export const LARGEST_MODEL_WINDOW = Math.max(CLIENT_1M_WINDOW, REGISTRY_LARGEST_WINDOW);

/**
 * The generated tables are text, a line a key (`\n<key> <value …>`): a hook looks one id up, and building the
 * catalog as objects cost every run more than the whole lookup does (scripts/models/table-file.mjs).
 */
function lineOf(lines: string, key: string): string[] | undefined {
  // A key with a space or a line break in it is none of the table's (no id or spelling holds one: catalog.mjs).
  if (key === '' || key.includes(' ') || key.includes('\n')) return undefined;
  const at = lines.indexOf(`\n${key} `);
  return at === -1 ? undefined : lines.slice(at + 1, lines.indexOf('\n', at + 1)).split(' ');
}

/** The catalog entry whose id is exactly `id`, else undefined. */
export function registryModel(id: string): RegistryModel | undefined {
  const line = lineOf(REGISTRY_MODEL_LINES, id);
  return line && modelOfLine(line);
}

function modelOfLine([id, window, maximumWindow, native1m, supports1mBeta, supports1mSuffix]: string[]): RegistryModel {
  return {
    id: id!,
    window: tokensOrNull(window),
    maximumWindow: tokensOrNull(maximumWindow),
    native1m: native1m === '1',
    supports1mBeta: supports1mBeta === '1',
    supports1mSuffix: supports1mSuffix === '1',
  };
}

function tokensOrNull(text: string | undefined): number | null {
  return text === '-' || text === undefined ? null : Number(text);
}

/** Every catalog model, in catalog order (read whole only on the rare paths, and by the tests). */
export function registryModels(): RegistryModel[] {
  return REGISTRY_MODEL_LINES.slice(1, -1)
    .split('\n')
    .map((line) => modelOfLine(line.split(' ')));
}

/** Client `OQ`: the Bedrock cross-region prefixes (`eu.anthropic.claude-…`); any other `x.anthropic.` prefix is not an id. */
const REGION_PREFIXES = ['us', 'eu', 'apac', 'jp', 'au', 'us-gov', 'global'];

/** What the id's window is, by Claude Code's catalog and rules (see the file header; the guard decides what to do with it). */
export function resolveModelWindow(raw: unknown, options: ModelLookupOptions = {}): ModelWindow {
  const disabled = options.disable1mContext === true;
  const normalized = normalizeModelId(raw, options);
  const model = normalized && registryModel(normalized.id);
  // Client `Jv`: an id it does not know counts YB (1,000,000), or BPt (200,000) with 1M disabled.
  if (!normalized || !model) return { kind: 'unknown', id: normalized?.id, largest: disabled ? DEFAULT_WINDOW : LARGEST_MODEL_WINDOW };
  return judgeModelWindow(model, normalized.suffix1m, disabled);
}

function judgeModelWindow(model: RegistryModel, suffix1m: boolean, disabled: boolean): ModelWindow {
  const id = model.id;
  // `zF()`: `K_` ignores native 1M, `yb` ignores `[1m]`, `LVe` refuses the beta; `Jv` then says BPt for a known model.
  if (disabled) return { kind: 'known', id, tokens: DEFAULT_WINDOW, basis: '1m-disabled' };
  // `Jv`: no native window → `if (!Zv(e)) return BPt` (a model the client knows counts 200,000).
  const window = model.window ?? DEFAULT_WINDOW;
  // `K_` → `Br(o).window`; `Pte` drops a `[1m]` from a natively-1M id, so the suffix changes nothing.
  if (model.native1m) return { kind: 'known', id, tokens: window, basis: 'registry' };
  // `JB`: with `[1m]` (`YLo` → `yb`), `Math.max(Jv(e), maximum_window ?? window, L_)`, whatever the model's 1M flags say.
  const largest = Math.max(model.maximumWindow ?? window, CLIENT_1M_WINDOW);
  if (suffix1m) return { kind: 'known', id, tokens: largest, basis: 'suffix' };
  // `Od`/`LVe`: `supports_1m_beta` makes 1M an opt-in (the `[1m]` suffix, or `--betas context-1m-…` which no id shows);
  // until then `G_` holds a model with a maximum_window at its window.
  if (model.supports1mBeta) return { kind: 'variants', id, tokens: window, largest };
  // `Od` says "never" (the client also lists haiku-4-5, opus-4-0/4-1/4-5 and claude-3-* in `BQe`): one window.
  return { kind: 'known', id, tokens: window, basis: model.window === null ? 'client-default' : 'registry' };
}

/**
 * The client's canonical model id for `raw` (`E_` → `bB`, after `PB` for aliases). `undefined`: not a model id
 * (not a string, empty, whitespace or control characters inside, over MAX_MODEL_ID_CHARS). Not mirrored: the
 * first-party remap of legacy Opus 4/4.1 requests to the current `opus` (`IB`); it happens before the request, so
 * the transcript already names the model that ran.
 */
export function normalizeModelId(raw: unknown, options: ModelLookupOptions = {}): NormalizedModelId | undefined {
  // The usual case, a catalog id as transcripts record it (one the provider table keeps as it is): what the steps
  // below give it, without their regular expressions, each compiled by V8 on a hook's first use.
  if (typeof raw === 'string' && lineOf(REGISTRY_MODEL_LINES, raw) !== undefined && providerModelOf(raw) === raw)
    return { id: raw, suffix1m: false };
  const text = readIdText(raw);
  if (text === undefined) return undefined;
  const target = aliasTarget(stripTags(text), options);
  if (target === undefined) return { id: canonicalModelId(stripTags(text)), suffix1m: hasSuffix1m(text) };
  const targetText = readIdText(target);
  if (targetText === undefined) return undefined;
  return { id: canonicalModelId(stripTags(targetText)), suffix1m: hasSuffix1m(text) || hasSuffix1m(targetText) };
}

/** `vc`: trimmed and lowercased; empty, or with whitespace inside, is no id. Control characters and the length cap: ours. */
function readIdText(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_MODEL_ID_CHARS) return undefined;
  const text = raw.trim().toLowerCase();
  return text === '' || hasSpaceOrControl(text) || stripTags(text) === '' ? undefined : text;
}

/**
 * Whitespace or a control character (Unicode's Cc: U+0000–U+001F, U+007F–U+009F). Not `/\p{Cc}/u`: a Unicode
 * property class makes V8 build ICU's tables, on the guard's every call.
 */
function hasSpaceOrControl(text: string): boolean {
  if (/\s/.test(text)) return true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** `yb`/`Xft`: a `[1m]` anywhere asks for the 1M context. */
function hasSuffix1m(text: string): boolean {
  return text.includes('[1m]');
}

/** `fr`: `[1m]`/`[2m]` tags are ignored when matching. */
function stripTags(text: string): string {
  return text.replace(/\[[12]m\]/g, '').trim();
}

/**
 * `PB`: an alias (`uk`: the client's list) names the catalog's model for the provider (`cB`), unless
 * `ANTHROPIC_DEFAULT_<ALIAS>_MODEL` names another; `best` is the catalog's `best`; `opusplan` runs as `sonnet` (`Sw`)
 * outside plan mode.
 */
function aliasTarget(name: string, options: ModelLookupOptions, depth = 0): string | undefined {
  if (depth > 2) return undefined;
  if (name === 'best') return BEST === null ? undefined : (aliasTarget(BEST, options, depth + 1) ?? BEST);
  if (name === 'opusplan') return aliasTarget('sonnet', options, depth + 1);
  const alias = Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
  if (!alias) return undefined;
  const override = options.aliasTargets?.[name];
  if (override !== undefined && override.trim() !== '') return override;
  const provider = options.provider ?? 'first_party';
  return Object.hasOwn(alias.perProvider, provider) ? alias.perProvider[provider] : alias.default;
}

/** `E_` → `bB`: lowercased `text` (no `[1m]`) → the catalog id it names, else the client's canonical spelling. */
function canonicalModelId(text: string): string {
  // `H1r`: a dotted version is the dashed one (`claude-sonnet-4.5` → `claude-sonnet-4-5`).
  const id = text.replace(/(claude-(?:[a-z]+-)?\d{1,2})\.(?=\d)/g, '$1-');
  // `bB` 1: any provider's exact spelling (`Ine`: the catalog's `catalogIdByProviderId`).
  const exact = providerModelOf(id);
  if (exact) return exact;
  // `bB` 2: another Bedrock region's spelling is the `us.` one.
  const region = REGION_PREFIXES.find((prefix) => prefix !== 'us' && id.startsWith(`${prefix}.anthropic.`));
  const regional = region && providerModelOf(`us${id.slice(region.length)}`);
  if (regional) return regional;
  // `bB` 3: parsed (`vc`) with a trailer the client accepts: the catalog entry of that family and version (`AB`), else the base.
  const parsed = parseModelId(id);
  if (parsed && parsed.trailer === undefined) return catalogIdOf(parsed) ?? stripDate(parsed.base);
  // `bB` 4 and 5: the catalog id the text contains, else the text without a `-YYYYMMDD` date (`hv`).
  return containedCatalogId(id) ?? stripDate(id);
}

/** The catalog id the provider spelling `id` (exactly, lowercased) names, else undefined. */
export function providerModelOf(id: string): string | undefined {
  return lineOf(REGISTRY_PROVIDER_LINES, id)?.[1];
}

function stripDate(id: string): string {
  return id.replace(/-\d{8}$/, '');
}

type ParsedModelId = { family: string; major: number; minor: number | undefined; legacy: boolean; base: string; trailer?: string };

/**
 * `vc`: the last `/` segment (ARNs, Vertex paths), an optional `<region>.anthropic.` or `anthropic.` prefix, then
 * `claude-<family>-<major>[-<minor>]` or the legacy `claude-<major>[-<minor>]-<family>` (`c`), then a trailer:
 * `-fast`/`-latest`, a date (`-YYYYMMDD`, `@YYYYMMDD`, `-vN@YYYYMMDD`), a Bedrock `-vN[:M]` (`Tpa`); any other is kept.
 */
function parseModelId(text: string): ParsedModelId | undefined {
  let id = text.slice(text.lastIndexOf('/') + 1);
  const prefixed = /^(?:([a-z-]+)\.)?anthropic\.(claude-.*)$/.exec(id);
  if (prefixed) {
    if (prefixed[1] !== undefined && !REGION_PREFIXES.includes(prefixed[1])) return undefined;
    id = prefixed[2] ?? '';
  }
  const version = parseVersion(id);
  if (!version) return undefined;
  const rest = id.slice(version.base.length);
  if (rest !== '' && !/^[-@]/.test(rest)) return undefined;
  const accepted = /^(?:-fast|-latest)?(?:-v\d{1,3}@\d{8}|[-@]\d{8})?(?:-v\d{1,3}(?::\d{1,3})?)?$/.test(rest);
  return accepted ? version : { ...version, trailer: rest };
}

function parseVersion(id: string): ParsedModelId | undefined {
  const modern = /^claude-([a-z]+)-(\d{1,2})(?!\d)(?:-(\d{1,2})(?!\d))?/.exec(id);
  if (modern) return { family: modern[1]!, major: Number(modern[2]), minor: optionalNumber(modern[3]), legacy: false, base: modern[0] };
  const legacy = /^claude-(\d{1,2})(?!\d)(?:-(\d{1,2})(?!\d))?-([a-z]+)/.exec(id);
  if (legacy) return { family: legacy[3]!, major: Number(legacy[1]), minor: optionalNumber(legacy[2]), legacy: true, base: legacy[0] };
  return undefined;
}

function optionalNumber(digits: string | undefined): number | undefined {
  return digits === undefined ? undefined : Number(digits);
}

/** `AB` with `vvn`: same family, same legacy form, same major and minor (a missing minor is 0: `claude-opus-4` is 4-0). */
function catalogIdOf(wanted: ParsedModelId): string | undefined {
  for (const { id } of registryModels()) {
    const entry = parseModelId(id);
    if (!entry || entry.trailer !== undefined) continue;
    if (
      entry.family === wanted.family &&
      entry.legacy === wanted.legacy &&
      entry.major === wanted.major &&
      (entry.minor ?? 0) === (wanted.minor ?? 0)
    )
      return id;
  }
  return undefined;
}

/**
 * `bB`'s hand-written substring tests, derived from the catalog: the longest id first; an id is found when not
 * followed by three more digits (`Y4e`: `claude-fable-5-2` is not in the dated `claude-fable-5-20260101`); a `…-0` id
 * also in its short form when no `-N` follows (`/claude-opus-4(?!-\d(?!\d))/` → `claude-opus-4-0`).
 */
function containedCatalogId(text: string): string | undefined {
  for (const { id, shortForm } of containedOrder()) {
    if (containsId(text, id) || shortForm?.test(text)) return id;
  }
  return undefined;
}

let containedOrderMemo: ReadonlyArray<{ id: string; shortForm: RegExp | undefined }> | undefined;

/** Built on first use: a session's model is nearly always a catalog id, found without it (~0.1 M instructions a hook run). */
function containedOrder(): ReadonlyArray<{ id: string; shortForm: RegExp | undefined }> {
  containedOrderMemo ??= registryModels()
    .map((model) => model.id)
    .sort((a, b) => b.length - a.length)
    .map((id) => ({ id, shortForm: id.endsWith('-0') ? new RegExp(`${id.slice(0, -2)}(?!-\\d(?!\\d))`) : undefined }));
  return containedOrderMemo;
}

function containsId(text: string, id: string): boolean {
  for (let at = text.indexOf(id); at !== -1; at = text.indexOf(id, at + 1)) {
    if (!/^\d{3}/.test(text.slice(at + id.length))) return true;
  }
  return false;
}
