/**
 * Finds Claude Code's baked-in model catalog in its binary and turns it into our table, checking every entry:
 * a shape we do not know stops the run with one line saying what and where, and nothing is written.
 */
import { LiteralError, readLiteral } from './js-literal.mjs';

/** A one-line reason the registry could not be read; models.mjs prints it and exits 1. */
export class ModelsError extends Error {}

/**
 * The catalog is one object literal that opens with this comment key (found once in 2.1.328 and 2.1.331). The variable
 * holding it is renamed by every build (`Yfs`, `hGs`), so only the literal's own first bytes are an anchor.
 */
export const CATALOG_ANCHOR = '{"//":"Hand-maintained baked-in model catalog';

/** The catalog is ~22 KB; a literal that does not end within this many bytes is not the catalog. */
const MAX_CATALOG_BYTES = 1024 * 1024;

/** Each embedded module starts `// @bun …` and names the release in a `// Version: x.y.z` line (2.1.331). */
const MODULE_HEADER = '// @bun';
const VERSION_LINE = /^\/\/ Version: (\d+\.\d+\.\d+)\r?$/m;

/** Every field a catalog `context` block has had (the zod schema in 2.1.331); a new one needs a human to judge it. */
const CONTEXT_FLAGS = ['native_1m', 'supports_1m_beta', 'clamp_long_context_without_beta', 'supports_1m_suffix'];
const CONTEXT_FIELDS = ['window', 'maximum_window', ...CONTEXT_FLAGS];
const MODEL_ID = /^claude-[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The catalog object and the release named by the module that holds it. */
export function findCatalog(buffer) {
  const anchor = Buffer.from(CATALOG_ANCHOR);
  const at = buffer.indexOf(anchor);
  if (at < 0) throw new ModelsError(`the model catalog (${CATALOG_ANCHOR}…) is not in the binary`);
  if (buffer.indexOf(anchor, at + 1) >= 0) throw new ModelsError('the model catalog anchor occurs more than once in the binary');
  const text = buffer.subarray(at, at + MAX_CATALOG_BYTES).toString('utf8');
  let literal;
  try {
    literal = readLiteral(text);
  } catch (error) {
    if (error instanceof LiteralError) throw new ModelsError(`the model catalog is not a plain literal: ${error.message}`);
    throw error;
  }
  return { catalog: literal.value, version: moduleVersion(buffer, at) };
}

/** The `// Version:` line of the module the catalog sits in (no other module header between it and the catalog). */
function moduleVersion(buffer, at) {
  const header = buffer.lastIndexOf(MODULE_HEADER, at);
  if (header < 0 || at - header > 64 * 1024 * 1024) throw new ModelsError('no module header before the model catalog');
  const version = VERSION_LINE.exec(buffer.subarray(header, Math.min(at, header + 4096)).toString('latin1'))?.[1];
  if (!version) throw new ModelsError('the module holding the model catalog names no `// Version: x.y.z`');
  return version;
}

/** Checks the catalog and keeps what the window lookup needs: ids, context, every provider spelling, aliases. */
export function buildTable(catalog) {
  if (!isObject(catalog)) throw new ModelsError('the model catalog is not an object');
  if (catalog.schema_version !== 1)
    throw new ModelsError(`catalog schema_version is ${JSON.stringify(catalog.schema_version)}, expected 1`);
  if (!Array.isArray(catalog.models) || catalog.models.length === 0) throw new ModelsError('the catalog has no models array');
  const entries = catalog.models.map((entry, index) => buildModel(entry, index));
  const models = entries.map((entry) => entry.model);
  const ids = new Set(models.map((model) => model.id));
  if (ids.size !== models.length) throw new ModelsError('a model id occurs twice in the catalog');
  const aliases = buildAliases(catalog.aliases, ids);
  const best = catalog.best;
  if (best !== undefined && !(typeof best === 'string' && (Object.hasOwn(aliases, best) || ids.has(best))))
    throw new ModelsError(`catalog best ${JSON.stringify(best)} is neither an alias nor a model id`);
  return { models, providerIds: mapProviderIds(entries), aliases, best: best ?? null };
}

function buildModel(entry, index) {
  const where = `model #${index}${isObject(entry) && typeof entry.id === 'string' ? ` (${entry.id})` : ''}`;
  if (!isObject(entry)) throw new ModelsError(`${where} is not an object`);
  if (typeof entry.id !== 'string' || !MODEL_ID.test(entry.id)) throw new ModelsError(`${where}: id is not a claude-… id`);
  if (!isObject(entry.provider_ids)) throw new ModelsError(`${where}: provider_ids is not an object`);
  const spellings = [];
  for (const [provider, id] of Object.entries(entry.provider_ids)) {
    if (id === null) continue;
    if (typeof id !== 'string' || id.trim() === '' || /\s/.test(id))
      throw new ModelsError(`${where}: provider_ids.${provider} is not an id`);
    spellings.push(id.toLowerCase());
  }
  return { model: { id: entry.id, ...buildContext(entry.context, where) }, spellings };
}

/**
 * Every provider spelling (lowercased) → its model, as the client's catalog index has it (`catalogIdByProviderId`);
 * the client refuses a spelling shared by two entries ("provider id collision"), and so do we.
 */
function mapProviderIds(entries) {
  const owners = new Map();
  for (const { model, spellings } of entries) {
    for (const spelling of spellings) {
      const owner = owners.get(spelling);
      if (owner !== undefined && owner !== model.id) throw new ModelsError(`provider id ${spelling} belongs to ${owner} and ${model.id}`);
      owners.set(spelling, model.id);
    }
  }
  return Object.fromEntries(owners);
}

function buildContext(context, where) {
  if (context === undefined) return { window: null, maximumWindow: null, native1m: false, supports1mBeta: false, supports1mSuffix: false };
  if (!isObject(context)) throw new ModelsError(`${where}: context is not an object`);
  const unknown = Object.keys(context).find((key) => !CONTEXT_FIELDS.includes(key));
  if (unknown) throw new ModelsError(`${where}: context has a field we do not know, ${unknown}: teach scripts/models what it means`);
  if (!isTokens(context.window)) throw new ModelsError(`${where}: context.window is not a positive integer`);
  if (context.maximum_window !== undefined && !(isTokens(context.maximum_window) && context.maximum_window >= context.window))
    throw new ModelsError(`${where}: context.maximum_window is not an integer at least the window`);
  for (const flag of CONTEXT_FLAGS) {
    if (context[flag] !== undefined && typeof context[flag] !== 'boolean')
      throw new ModelsError(`${where}: context.${flag} is not a boolean`);
  }
  return {
    window: context.window,
    maximumWindow: context.maximum_window ?? null,
    native1m: context.native_1m === true,
    supports1mBeta: context.supports_1m_beta === true,
    supports1mSuffix: context.supports_1m_suffix === true,
  };
}

function buildAliases(aliases, ids) {
  if (aliases === undefined) return {};
  if (!isObject(aliases)) throw new ModelsError('catalog aliases is not an object');
  const out = {};
  for (const [name, alias] of Object.entries(aliases)) {
    if (!isObject(alias) || !ids.has(alias.default)) throw new ModelsError(`alias ${name}: default is not a model id of the catalog`);
    const perProvider = alias.per_provider ?? {};
    if (!isObject(perProvider)) throw new ModelsError(`alias ${name}: per_provider is not an object`);
    for (const [provider, id] of Object.entries(perProvider)) {
      if (!ids.has(id)) throw new ModelsError(`alias ${name}: per_provider.${provider} is not a model id of the catalog`);
    }
    out[name] = { default: alias.default, perProvider: { ...perProvider } };
  }
  return out;
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTokens(value) {
  return Number.isSafeInteger(value) && value > 0;
}
