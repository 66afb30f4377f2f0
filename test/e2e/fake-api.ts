/**
 * A scripted Anthropic Messages API on 127.0.0.1 for the real Claude Code
 * client: answers POST /v1/messages with server-sent events, puts the scripted
 * `usage` in message_start (which is what lands in the transcript), and
 * records every request, i.e. everything the model was shown.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Usage = { input?: number; cacheRead?: number; cacheCreation?: number; output?: number };

/** One model turn: text, or a tool call (stop_reason tool_use). */
export type Turn = Usage & { text?: string; toolUse?: { name: string; input: Record<string, unknown> } };

export type RecordedRequest = {
  index: number;
  path: string;
  body: { model?: string; messages?: Message[]; system?: unknown; stream?: boolean; [key: string]: unknown };
  /** Everything the model could read in this request (system, messages, tool results), as plain text. */
  text: string;
  /** Claude Code's own summarisation request during a compaction. */
  isSummary: boolean;
};

type Message = { role: string; content: unknown };

export type Script = (request: RecordedRequest) => Turn;

export class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  /** What the summariser answers during a compaction (Claude Code passes it to PostCompact as compact_summary). */
  summaryText = 'Summary: the user asked for work on the project; it is in progress.';
  private server: Server | undefined;

  constructor(private readonly script: Script) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** The model requests of the conversation, without the summariser's. */
  get conversation(): RecordedRequest[] {
    return this.requests.filter((request) => !request.isSummary);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
      return;
    }
    let body: RecordedRequest['body'] = {};
    try {
      body = JSON.parse(raw);
    } catch {
      // recorded as empty
    }
    const text = readableText(body);
    const request: RecordedRequest = {
      index: this.requests.length,
      path: req.url,
      body,
      text,
      isSummary: lastUserText(body).startsWith('CRITICAL: Respond with TEXT ONLY'),
    };
    this.requests.push(request);
    const turn = request.isSummary ? { text: this.summaryText, cacheRead: 2_000 } : this.script(request);
    if (body.stream === false) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message(request, turn, true)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (name: string, data: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    event('message_start', { type: 'message_start', message: message(request, turn, false) });
    if (turn.toolUse) {
      event('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: toolUseId(request), name: turn.toolUse.name, input: {} },
      });
      event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.toolUse.input) },
      });
    } else {
      event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text ?? 'done' } });
    }
    event('content_block_stop', { type: 'content_block_stop', index: 0 });
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: turn.toolUse ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: turn.output ?? 5 },
    });
    event('message_stop', { type: 'message_stop' });
    res.end();
  }
}

/** The id the fake API gives the tool call it answers `request` with (`toolu_<index>`). */
export function toolUseId(request: RecordedRequest): string {
  return `toolu_${request.index}`;
}

/**
 * What the model was given back for one tool call, in a later request: the tool_result's text (exactly, up to the
 * `<system-reminder>` blocks the client itself may append, e.g. a token budget on claude-haiku-4-5) and whether the
 * client marked it an error; undefined when that request carries no result for the call.
 */
export function toolResult(request: RecordedRequest, id: string): { content: string; isError: boolean } | undefined {
  for (const m of request.body.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content as Array<Record<string, unknown>>) {
      if (block.type !== 'tool_result' || block.tool_use_id !== id) continue;
      const content = Array.isArray(block.content)
        ? (block.content as Array<Record<string, unknown>>).map((part) => String(part.text ?? '')).join('\n')
        : String(block.content ?? '');
      return { content: content.replace(/(\n\n<system-reminder>[\s\S]*?<\/system-reminder>)+$/, ''), isError: block.is_error === true };
    }
  }
  return undefined;
}

function message(request: RecordedRequest, turn: Turn, complete: boolean) {
  return {
    id: `msg_${request.index}`,
    type: 'message',
    role: 'assistant',
    model: request.body.model ?? 'claude-opus-5-5',
    content: complete
      ? [
          turn.toolUse
            ? { type: 'tool_use', id: toolUseId(request), name: turn.toolUse.name, input: turn.toolUse.input }
            : { type: 'text', text: turn.text ?? 'done' },
        ]
      : [],
    stop_reason: complete ? (turn.toolUse ? 'tool_use' : 'end_turn') : null,
    stop_sequence: null,
    usage: {
      input_tokens: turn.input ?? 5,
      cache_creation_input_tokens: turn.cacheCreation ?? 0,
      cache_read_input_tokens: turn.cacheRead ?? 0,
      output_tokens: complete ? (turn.output ?? 5) : 1,
    },
  };
}

/** Flatten system prompt, message texts and tool results into one searchable string. */
function readableText(body: RecordedRequest['body']): string {
  const parts: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const block = value as Record<string, unknown>;
      if (typeof block.text === 'string') parts.push(block.text);
      if (block.type === 'tool_use') parts.push(JSON.stringify(block.input));
      if ('content' in block) visit(block.content);
    }
  };
  visit(body.system);
  for (const m of body.messages ?? []) visit(m.content);
  return parts.join('\n');
}

function lastUserText(body: RecordedRequest['body']): string {
  const users = (body.messages ?? []).filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  const blocks = Array.isArray(last.content) ? (last.content as Array<Record<string, unknown>>) : [];
  const texts = blocks.filter((b) => b.type === 'text').map((b) => String(b.text));
  return texts.find((t) => t.startsWith('CRITICAL')) ?? texts[0] ?? '';
}
