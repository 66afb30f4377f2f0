/**
 * The transcript's `model` attachment (CLAUDE-CODE-FACTS.md, 2.1.331): `{"type":"attachment",
 * "attachment":{"type":"model","identity":{"modelId":"claude-sonnet-4-5[1m]",…}}}`. Its id keeps the
 * `[1m]` suffix that tells a 1M session from its 200K base; assistant records never carry it.
 */
import { isObject } from './json-shape.js';

/** A substring every model attachment line holds: other lines are skipped unparsed. */
export const MODEL_ATTACHMENT_MARK = '"modelId"';

/** The top-level `type` of every record classifyModelAttachment accepts. */
export const MODEL_ATTACHMENT_TYPE = 'attachment';

/** The attachment's model id, or undefined for any other record (sidechains included). */
export function classifyModelAttachment(record: unknown): string | undefined {
  if (!isObject(record) || record.type !== 'attachment' || record.isSidechain === true) return undefined;
  const attachment = record.attachment;
  if (!isObject(attachment) || attachment.type !== 'model' || !isObject(attachment.identity)) return undefined;
  const id = attachment.identity.modelId;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : undefined;
}
