// Captured-style reasoning streams of public APIs (issue 27), for the stream tests: the shapes follow the providers'
// own documented streams (ids, timestamps and blobs shortened).

export const sseOf = (events: unknown[], done = false): string =>
  events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
export const ndjsonOf = (events: unknown[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');

const SIG = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxDYTMzNTFiNjY1ZjYyMjUwIjA3ZWZhYzY4YzE0MDQ1NGE0NWVmZjVjZjQ3ZDk4OGZm';
const BLOB = 'gAAAAABoISQ24OyVRYbkYfukdRdh2mV5rBqwUyKhlHVyEywc7MSeW3pAV5eFBOUcyRvrpqbO-gG6yZ1fYkKjWB2wYq3UTR1mW3JfXS0W';

/** OpenAI Chat Completions (DeepSeek-style `reasoning_content`): id, created, model, fingerprint in every chunk. */
export function openAiChat(): unknown[] {
  const base = {
    id: 'chatcmpl-9x8Yz1AbC2dEf3GhI4jKl',
    object: 'chat.completion.chunk',
    created: 1_732_000_000,
    model: 'deepseek-reasoner',
    system_fingerprint: 'fp_7e93aa2c',
  };
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  return [
    chunk({ role: 'assistant', content: '', reasoning_content: null }),
    chunk({ content: null, reasoning_content: 'The user wants' }),
    chunk({ content: null, reasoning_content: ' a greeting.' }),
    chunk({ content: 'Hello', reasoning_content: null }),
    chunk({ content: ' there!', reasoning_content: null }),
    chunk({}, 'stop'),
    { ...base, choices: [], usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 } },
  ];
}

/** OpenAI Responses API: the first events echo the request (instructions, a tool schema), a reasoning item's blob. */
export function openAiResponses(): unknown[] {
  const response = {
    id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
    object: 'response',
    created_at: 1_741_476_542,
    status: 'in_progress',
    model: 'o4-mini-2025-04-16',
    instructions: 'You are a helpful assistant. Answer briefly.',
    reasoning: { effort: 'medium', summary: 'auto' },
    tools: [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Get the current weather in a given city',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'The city and country, e.g. Paris, France' },
            unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          },
          required: ['city'],
        },
        strict: true,
      },
    ],
    output: [],
    usage: null,
  };
  const rs = 'rs_6820f382ee1c8191bc096bee70894d040ac5ba57aafcbac7';
  const msg = 'msg_6820f38a7b208191bf0e5bb3b7b36d0b0ac5ba57aafcbac7';
  let seq = 0;
  const e = (type: string, rest: object) => ({ type, sequence_number: seq++, ...rest });
  return [
    e('response.created', { response }),
    e('response.in_progress', { response }),
    e('response.output_item.added', { output_index: 0, item: { id: rs, type: 'reasoning', summary: [], encrypted_content: BLOB } }),
    e('response.reasoning_summary_part.added', {
      item_id: rs,
      output_index: 0,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    }),
    e('response.reasoning_summary_text.delta', { item_id: rs, output_index: 0, summary_index: 0, delta: '**Greeting** the user' }),
    e('response.reasoning_summary_text.delta', { item_id: rs, output_index: 0, summary_index: 0, delta: ' warmly.' }),
    e('response.reasoning_summary_text.done', { item_id: rs, output_index: 0, summary_index: 0, text: '**Greeting** the user warmly.' }),
    e('response.output_item.done', {
      output_index: 0,
      item: {
        id: rs,
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: '**Greeting** the user warmly.' }],
        encrypted_content: BLOB,
      },
    }),
    e('response.output_item.added', {
      output_index: 1,
      item: { id: msg, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
    }),
    e('response.content_part.added', {
      item_id: msg,
      output_index: 1,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
    e('response.output_text.delta', { item_id: msg, output_index: 1, content_index: 0, delta: 'Hi', logprobs: [] }),
    e('response.output_text.delta', { item_id: msg, output_index: 1, content_index: 0, delta: ' there!', logprobs: [] }),
    e('response.output_text.done', { item_id: msg, output_index: 1, content_index: 0, text: 'Hi there!' }),
    e('response.completed', {
      response: {
        ...response,
        status: 'completed',
        output: [{ id: msg, type: 'message', content: [{ type: 'output_text', text: 'Hi there!' }] }],
      },
    }),
  ];
}

/** Anthropic Messages with extended thinking: SSE event types, a thinking block closed by a signature. */
export function anthropicSse(): string {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    ev('message_start', {
      message: {
        id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'claude-sonnet-4-5',
        stop_reason: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    }),
    ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'The user says hi,' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: ' so greet back.' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: SIG } }),
    ev('content_block_stop', { index: 0 }),
    ev('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
    'event: ping\ndata: {"type": "ping"}\n\n',
    ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Hello' } }),
    ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: '!' } }),
    ev('content_block_stop', { index: 1 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } }),
    ev('message_stop', {}),
  ].join('');
}

/** Gemini streamGenerateContent (alt=sse) with thought summaries: `thought: true` marks a part as reasoning. */
export function gemini(responseId = 'hO4gaNv2JYqKvdIPo8Wq6QE'): unknown[] {
  const ev = (parts: object[], finish?: string) => ({
    candidates: [{ content: { parts, role: 'model' }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
    usageMetadata: { promptTokenCount: 8, totalTokenCount: 40 },
    modelVersion: 'gemini-2.5-flash',
    responseId,
  });
  return [
    ev([{ text: '**Understanding the greeting**\n\nThe user said hello.', thought: true }]),
    ev([{ text: ' I will greet back.', thought: true }]),
    ev([{ text: 'Hello' }]),
    ev([{ text: ' to you too!' }], 'STOP'),
  ];
}

/** Ollama /api/chat with `think: true`: NDJSON, `message.thinking` beside `message.content`, `done`. */
export function ollama(): unknown[] {
  const ev = (message: object, done = false) => ({
    model: 'qwen3:8b',
    created_at: '2025-06-01T10:00:00.123Z',
    message: { role: 'assistant', ...message },
    done,
  });
  return [
    ev({ content: '', thinking: 'Okay, the user' }),
    ev({ content: '', thinking: ' greets me.' }),
    ev({ content: 'Hi' }),
    ev({ content: '!' }),
    { ...ev({ content: '' }, true), done_reason: 'stop', total_duration: 4_883_583_458, eval_count: 290 },
  ];
}

/** Non-streamed answers of the same APIs (one JSON document each), with what they hold. */
export function wholeAnswers(): { name: string; body: unknown; reasoning: string; answer: string }[] {
  return [
    {
      name: 'OpenAI Chat Completions (reasoning_content)',
      body: {
        id: 'chatcmpl-9x8Yz1AbC2dEf3GhI4jKl',
        object: 'chat.completion',
        created: 1_732_000_000,
        model: 'deepseek-reasoner',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Hello there!', reasoning_content: 'The user wants a greeting.' },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 },
      },
      reasoning: 'The user wants a greeting.',
      answer: 'Hello there!',
    },
    {
      name: 'OpenAI Responses (a reasoning item: summary and encrypted_content)',
      body: {
        id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
        object: 'response',
        status: 'completed',
        model: 'o4-mini-2025-04-16',
        output: [
          {
            id: 'rs_6820f382ee1c8191bc096bee70894d040ac5ba57aafcbac7',
            type: 'reasoning',
            summary: [{ type: 'summary_text', text: '**Greeting** the user warmly.' }],
            encrypted_content: BLOB,
          },
          {
            id: 'msg_6820f38a7b208191bf0e5bb3b7b36d0b0ac5ba57aafcbac7',
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'Hi there!', annotations: [] }],
          },
        ],
      },
      reasoning: '**Greeting** the user warmly.',
      answer: 'Hi there!',
    },
    {
      name: 'Anthropic Messages (a thinking block with its signature)',
      body: {
        id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'thinking', thinking: 'The user says hi, so greet back.', signature: SIG },
          { type: 'text', text: 'Hello!' },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 12, output_tokens: 30 },
      },
      reasoning: 'The user says hi, so greet back.',
      answer: 'Hello!',
    },
    {
      name: 'Gemini (parts marked `thought: true`)',
      body: {
        candidates: [
          {
            content: {
              parts: [{ text: 'The user said hello.', thought: true }, { text: 'Hello to you too!' }],
              role: 'model',
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'hO4gaNv2JYqKvdIPo8Wq6QE',
      },
      reasoning: 'The user said hello.',
      answer: 'Hello to you too!',
    },
  ];
}
