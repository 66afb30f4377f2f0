/**
 * Builds transcripts shaped like Claude Code 2.1.x writes them (record
 * layout copied from the real fixtures), for the demo, tests and benchmarks:
 * aTranscript().user('hi').assistant({ cacheRead: 90_000 }).toString()
 */

export type UsageSpec = {
  input?: number;
  cacheRead?: number;
  cacheCreation?: number;
  output?: number;
};

export type AssistantSpec = UsageSpec & {
  model?: string;
  sidechain?: boolean;
  apiError?: boolean;
  agentId?: string;
  /** A tool call in the content, e.g. { name: 'Skill', input: { skill: 'deep-dive' } }. */
  toolUse?: { name: string; input: Record<string, unknown>; id?: string };
  /** Text content; use a long string to make a multi-megabyte turn. */
  text?: string;
  /** Replace the usage object wholesale (for hostile values). */
  rawUsage?: unknown;
};

export class TranscriptBuilder {
  private readonly records: string[] = [];
  private counter = 0;

  constructor(
    private readonly sessionId = '00000000-0000-4000-8000-000000000000',
    private readonly cwd = '/home/dev/project',
  ) {}

  /** `typeFirst`: Claude Code writes a user record's type before its message, an assistant's or attachment's after it. */
  private base(type: string, extra: Record<string, unknown> = {}, typeFirst = false) {
    this.counter += 1;
    return {
      parentUuid: null,
      isSidechain: false,
      ...(typeFirst ? { type } : {}),
      ...extra,
      type,
      uuid: `00000000-0000-4000-8000-${String(this.counter).padStart(12, '0')}`,
      timestamp: new Date(Date.UTC(2026, 10, 22, 3, 0, this.counter)).toISOString(),
      userType: 'external',
      entrypoint: 'sdk-cli',
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: '2.1.328',
      gitBranch: 'main',
    };
  }

  user(text: string): this {
    return this.push(this.base('user', { message: { role: 'user', content: text } }, true));
  }

  /** A tool result as the user record Claude Code writes after a tool runs; `bytes` pads it to a realistic size. */
  toolResult(bytes = 200, text = 'ok'): this {
    const content = text + 'x'.repeat(Math.max(0, bytes - text.length));
    return this.push(
      this.base(
        'user',
        {
          message: { role: 'user', content: [{ type: 'tool_result', content, tool_use_id: `toolu_${this.counter}` }] },
          toolUseResult: { stdout: content.slice(0, 64) },
        },
        true,
      ),
    );
  }

  /** Attachments embed system prompts and file contents: the big lines of a real transcript. */
  attachment(bytes = 13_000): this {
    return this.push(this.base('attachment', { attachment: { type: 'file', content: 'a'.repeat(bytes) } }));
  }

  assistant(spec: AssistantSpec = {}): this {
    const usage = spec.rawUsage ?? {
      input_tokens: spec.input ?? 5,
      cache_creation_input_tokens: spec.cacheCreation ?? 0,
      cache_read_input_tokens: spec.cacheRead ?? 0,
      output_tokens: spec.output ?? 5,
      service_tier: 'standard',
    };
    const content: unknown[] = [];
    if (spec.text !== undefined) content.push({ type: 'text', text: spec.text });
    if (spec.toolUse)
      content.push({
        type: 'tool_use',
        id: spec.toolUse.id ?? `toolu_${this.counter + 1}`,
        name: spec.toolUse.name,
        input: spec.toolUse.input,
      });
    if (content.length === 0) content.push({ type: 'text', text: 'done' });
    const model = spec.apiError ? '<synthetic>' : (spec.model ?? 'claude-opus-5-5');
    return this.push(
      this.base('assistant', {
        isSidechain: spec.sidechain === true || spec.agentId !== undefined,
        ...(spec.agentId ? { agentId: spec.agentId } : {}),
        ...(spec.apiError ? { isApiErrorMessage: true } : {}),
        message: {
          id: `msg_${this.counter + 1}`,
          type: 'message',
          role: 'assistant',
          model,
          content,
          stop_reason: spec.toolUse ? 'tool_use' : 'end_turn',
          usage,
        },
        requestId: `req_${this.counter + 1}`,
      }),
    );
  }

  /** Decoys: a subagent's turn inline (pre-2.1 layout). */
  sidechain(usage: UsageSpec = { cacheRead: 150_000 }): this {
    return this.assistant({ ...usage, sidechain: true });
  }

  /** Decoy: an API error turn with all-zero usage. */
  apiError(): this {
    return this.assistant({ apiError: true, input: 0, cacheRead: 0, cacheCreation: 0, output: 0 });
  }

  /** Decoy: 2.1.x `agent_progress` nesting a subagent's message and usage. */
  progress(usage: UsageSpec = { cacheRead: 170_000 }): this {
    this.counter += 1;
    return this.push({
      type: 'progress',
      data: {
        type: 'agent_progress',
        message: {
          type: 'assistant',
          message: {
            role: 'assistant',
            model: 'claude-opus-5-5',
            usage: {
              input_tokens: usage.input ?? 5,
              cache_read_input_tokens: usage.cacheRead ?? 0,
              cache_creation_input_tokens: usage.cacheCreation ?? 0,
            },
          },
        },
      },
      toolUseID: `toolu_${this.counter}`,
      uuid: `p-${this.counter}`,
      sessionId: this.sessionId,
    });
  }

  compactBoundary(meta: { trigger?: 'auto' | 'manual'; preTokens?: number; postTokens?: number } = {}): this {
    const compactMetadata: Record<string, unknown> = { trigger: meta.trigger ?? 'auto', preTokens: meta.preTokens ?? 951_011 };
    if (meta.postTokens !== undefined) compactMetadata.postTokens = meta.postTokens;
    return this.push(
      this.base('system', {
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        level: 'info',
        compactMetadata,
      }),
    );
  }

  /**
   * The `model` attachment Claude Code writes at a session's start, after a model switch and after a
   * compaction (2.1.331); its id keeps a `[1m]` suffix that assistant records never carry.
   */
  modelAttachment(modelId: string): this {
    const text = `You are powered by the model ${modelId}.`;
    return this.push(
      this.base('attachment', {
        attachment: { type: 'model', identity: { modelId, marketingName: null, knowledgeCutoff: null }, text },
        rendered: [{ content: `<system-reminder>\n${text}\n</system-reminder>` }],
        renderedRole: 'system',
      }),
    );
  }

  /** Bookkeeping records Claude Code interleaves; never measured. */
  noise(): this {
    this.counter += 1;
    this.push({ type: 'queue-operation', operation: 'enqueue', timestamp: '2026-11-22T03:00:00.000Z', sessionId: this.sessionId });
    this.push({ type: 'last-prompt', lastPrompt: 'go', sessionId: this.sessionId });
    return this.push({ type: 'cost-state', sessionId: this.sessionId, costUSD: 0.01 });
  }

  /** Any line as-is (garbage, hostile JSON, ...). */
  raw(line: string): this {
    this.records.push(line);
    return this;
  }

  private push(record: unknown): this {
    this.records.push(JSON.stringify(record));
    return this;
  }

  /** JSONL with a trailing newline, as Claude Code leaves it between writes. */
  toString(): string {
    return this.records.length === 0 ? '' : `${this.records.join('\n')}\n`;
  }

  /** The same, plus half of one more line: a transcript caught mid-write. */
  withTornTail(partial = '{"parentUuid":"x","isSidechain":false,"message":{"usage":{"input_tokens":9'): string {
    return `${this.toString()}${partial}`;
  }
}

export function aTranscript(sessionId?: string, cwd?: string): TranscriptBuilder {
  return new TranscriptBuilder(sessionId, cwd);
}
