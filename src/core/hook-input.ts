/** Hook inputs as Claude Code sends them (see CLAUDE-CODE-FACTS.md); unknown fields pass through. */
import * as z from 'zod/mini';

const id = z.string().check(z.minLength(1), z.maxLength(4096));

export const preToolUseInputSchema = z.looseObject({
  session_id: id,
  transcript_path: z.string().check(z.minLength(1), z.maxLength(4096)),
  cwd: z.optional(z.string()),
  hook_event_name: z.optional(z.string()),
  tool_name: z.string().check(z.minLength(1), z.maxLength(256)),
  tool_input: z.optional(z.unknown()),
  /** Present when the call is made inside a subagent; its transcript_path is still the main one. */
  agent_id: z.optional(id),
  agent_type: z.optional(z.string()),
});

export type PreToolUseInput = z.infer<typeof preToolUseInputSchema>;

/** Agent ids become part of a file path; anything outside this shape is not measured (the call passes). */
export const SAFE_AGENT_ID = /^[A-Za-z0-9_-]{1,128}$/;
