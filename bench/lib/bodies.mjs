// Request bodies for every scenario. Small bodies match the Portkey comparison harness (one system prompt, one
// question, ~250 B); the large ones are a coding-agent conversation of about 500 KB: tool
// definitions, then many rounds of assistant tool calls and tool results holding source files and
// test logs, with quotes, backslashes, newlines and non-ASCII characters, so that decoding and
// escaping cost what they cost on real agent traffic.

const system = 'You are a helpful assistant.';
const question = 'Explain in one paragraph what an API gateway for LLMs does.';

/** @param {string} model @param {boolean} stream @param {string} [marker] text the fake upstream reads (e.g. bench-delay-200) */
export function chatBody(model, stream, marker = '') {
  return JSON.stringify({
    model,
    messages: [{ role: 'system', content: system + (marker ? ` ${marker}` : '') }, { role: 'user', content: question }],
    temperature: 0.2,
    max_tokens: 256,
    ...(stream ? { stream: true } : {}),
  });
}

/** @param {string} model @param {boolean} stream @param {string} [marker] */
export function messagesBody(model, stream, marker = '') {
  return JSON.stringify({
    model,
    max_tokens: 256,
    system: system + (marker ? ` ${marker}` : ''),
    messages: [{ role: 'user', content: question }],
    ...(stream ? { stream: true } : {}),
  });
}

/** @param {string} model @param {boolean} stream @param {string} [marker] */
export function responsesBody(model, stream, marker = '') {
  return JSON.stringify({
    model,
    instructions: system + (marker ? ` ${marker}` : ''),
    input: [{ role: 'user', content: [{ type: 'input_text', text: question }] }],
    max_output_tokens: 256,
    ...(stream ? { stream: true } : {}),
  });
}

/**
 * An image generation as a gpt-image client sends it: base64 wanted back. The fake upstream answers
 * `n` copies of one ≈1.55 MB PNG (≈2.07 MB of base64 each).
 * @param {string} model @param {number} [count]
 */
export function imageBody(model, count = 1) {
  return JSON.stringify({
    model,
    prompt: 'A lighthouse on a rocky coast at dusk, waves breaking, warm light in the window, film grain.',
    n: count,
    size: '1024x1024',
    quality: 'high',
    output_format: 'png',
    response_format: 'b64_json',
  });
}

// ---------------------------------------------------------------- the coding-agent conversation

const tools = [
  { name: 'read_file', description: 'Read a file of the repository and return its content with line numbers.',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'Path relative to the repository root.' } }, required: ['path'] } },
  { name: 'run_tests', description: 'Run the test suite (or one file of it) and return the output.',
    parameters: { type: 'object', properties: { file: { type: 'string' }, grep: { type: 'string' } }, required: [] } },
  { name: 'edit_file', description: 'Replace an exact string in a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }, required: ['path', 'old_string', 'new_string'] } },
];

/** Deterministic source text of about `size` characters (a TypeScript module with comments). */
function sourceFile(seed, size) {
  const lines = [`// src/module-${seed}.ts — generated for the benchmark; “quotes”, é, → and \\ escapes included`];
  for (let index = 0; lines.join('\n').length < size; index++) {
    lines.push(
      `export function handler${seed}_${index}(request: Request): Promise<Response> {`,
      `  const items = request.headers.get("x-items-${index}") ?? '[]'; // JSON like {"a":[1,2,3]}`,
      `  const parsed = JSON.parse(items) as { a: number[] };`,
      `  if (parsed.a.length > ${index % 17}) throw new Error(\`too many: \${parsed.a.length}\\n\`);`,
      `  return Promise.resolve(new Response(String(parsed.a.reduce((x, y) => x + y, ${index}))));`,
      '}',
      '',
    );
  }
  return lines.join('\n');
}

function testLog(seed) {
  const lines = [];
  for (let index = 0; index < 40; index++) {
    lines.push(` ✓ src/module-${seed}.test.ts > handler${seed}_${index} > returns the sum (${(index * 0.37).toFixed(2)} ms)`);
  }
  lines.push(` ✗ src/module-${seed}.test.ts > rejects "bad" input\n   AssertionError: expected 'ok' to be "error"\n    at C:\\work\\src\\module-${seed}.test.ts:12:5`);
  return lines.join('\n');
}

/** One agent round: a tool call and its (large) result. */
function rounds(targetBytes) {
  const list = [];
  let size = 0;
  for (let round = 0; size < targetBytes; round++) {
    const callId = `call_${String(round).padStart(4, '0')}_bench`;
    const isRead = round % 3 !== 2;
    const name = isRead ? 'read_file' : 'run_tests';
    const input = isRead ? { path: `src/module-${round}.ts` } : { file: `src/module-${round}.test.ts` };
    const result = isRead ? sourceFile(round, 7000) : testLog(round);
    const thought = `Round ${round}: I will ${isRead ? 'read the module' : 'run its tests'} to check the handler before editing.`;
    list.push({ callId, name, input, result, thought });
    size += result.length + thought.length + 200;
  }
  return list;
}

const task = 'Fix the failing tests in src/ without changing the public API. Read the relevant modules first.';

/** A chat request of about `targetBytes`: the conversation so far, asking for the next step. */
export function bigChatBody(model, stream, targetBytes = 500_000) {
  const messages = [{ role: 'system', content: 'You are a careful coding agent working in a TypeScript repository.' }, { role: 'user', content: task }];
  for (const round of rounds(targetBytes)) {
    messages.push({ role: 'assistant', content: round.thought,
      tool_calls: [{ id: round.callId, type: 'function', function: { name: round.name, arguments: JSON.stringify(round.input) } }] });
    messages.push({ role: 'tool', tool_call_id: round.callId, content: round.result });
  }
  messages.push({ role: 'user', content: 'Continue.' });
  return JSON.stringify({
    model, messages, max_tokens: 1024, temperature: 0,
    tools: tools.map((tool) => ({ type: 'function', function: tool })),
    ...(stream ? { stream: true } : {}),
  });
}

/** The same conversation as an Anthropic Messages request (tool_use / tool_result blocks). */
export function bigMessagesBody(model, stream, targetBytes = 500_000) {
  const messages = [{ role: 'user', content: task }];
  for (const round of rounds(targetBytes)) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: round.thought }, { type: 'tool_use', id: round.callId, name: round.name, input: round.input }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: round.callId, content: round.result }] });
  }
  // Anthropic wants roles to alternate: the closing instruction joins the last tool result.
  messages[messages.length - 1].content.push({ type: 'text', text: 'Continue.' });
  return JSON.stringify({
    model, max_tokens: 1024, system: 'You are a careful coding agent working in a TypeScript repository.',
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
    messages,
    ...(stream ? { stream: true } : {}),
  });
}
