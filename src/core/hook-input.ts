/**
 * Hook inputs as Claude Code sends them (see CLAUDE-CODE-FACTS.md). Checked
 * by hand, not with zod: zod on the hook's path costs ~2 ms of every start.
 */
import { asRecord } from './json-shape.js';

export type PreToolUseInput = {
  session_id: string;
  transcript_path: string;
  cwd?: string | undefined;
  tool_name: string;
  tool_input?: unknown;
  /** Present when the call is made inside a subagent; its transcript_path is still the main one. */
  agent_id?: string | undefined;
  /** The call's id; the assistant record that makes the call holds it (used to wait for that record). */
  tool_use_id?: string | undefined;
};

const MAX_ID = 4096;

/** The fields the guard uses, or undefined when the input is not a PreToolUse input. Unknown fields are ignored. */
export function parsePreToolUseInput(value: unknown): PreToolUseInput | undefined {
  const input = asRecord(value);
  if (!input) return undefined;
  const sessionId = text(input.session_id, MAX_ID);
  const transcriptPath = text(input.transcript_path, MAX_ID);
  const toolName = text(input.tool_name, 256);
  if (!sessionId || !transcriptPath || !toolName) return undefined;
  if (input.cwd !== undefined && typeof input.cwd !== 'string') return undefined;
  if (input.agent_id !== undefined && !text(input.agent_id, MAX_ID)) return undefined;
  return {
    session_id: sessionId,
    transcript_path: transcriptPath,
    cwd: input.cwd,
    tool_name: toolName,
    tool_input: input.tool_input,
    agent_id: input.agent_id as string | undefined,
    tool_use_id: typeof input.tool_use_id === 'string' && isSafeId(input.tool_use_id) ? input.tool_use_id : undefined,
  };
}

/** What every other event needs: whose session, its transcript, where. Event-specific fields stay in `raw`. */
export type SessionInput = {
  session_id: string;
  transcript_path: string | undefined;
  cwd: string | undefined;
  raw: Record<string, unknown>;
};

export function parseSessionInput(value: unknown): SessionInput | undefined {
  const raw = asRecord(value);
  if (!raw) return undefined;
  const sessionId = text(raw.session_id, MAX_ID);
  if (!sessionId) return undefined;
  if (raw.transcript_path !== undefined && raw.transcript_path !== null && !text(raw.transcript_path, MAX_ID)) return undefined;
  if (raw.cwd !== undefined && typeof raw.cwd !== 'string') return undefined;
  return { session_id: sessionId, transcript_path: text(raw.transcript_path, MAX_ID), cwd: raw.cwd as string | undefined, raw };
}

/** A string field of the raw input, bounded; anything else reads as absent. */
export function stringField(raw: Record<string, unknown>, key: string, max = MAX_ID): string | undefined {
  return text(raw[key], max);
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

/**
 * An id that may become part of a file path as it is (`/^[A-Za-z0-9_-]{1,128}$/`): agent ids (anything else is not
 * measured: the call passes), tool_use ids looked for in lines, session ids. Spelt out rather than as that expression:
 * every hook run checks one, and a regular expression's first use compiles it (~40 K instructions, measured).
 */
export function isSafeId(id: string): boolean {
  if (id.length === 0 || id.length > 128) return false;
  for (let at = 0; at < id.length; at++) {
    const c = id.charCodeAt(at);
    const safe = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
    if (!safe) return false;
  }
  return true;
}
