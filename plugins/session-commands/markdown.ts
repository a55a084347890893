import type { Message, SessionSnapshot } from '../../core/index.js';

const fence = (text: string, lang = '') => {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

function messageMarkdown(message: Message): string {
  const out: string[] = [];
  if (message.role === 'user') {
    const who = message.meta?.origin && message.meta.origin !== 'user' ? `User (${message.meta.origin})` : 'User';
    out.push(`## ${who}`);
    for (const part of message.content) out.push(part.type === 'text' ? part.text : `*[image: ${part.mediaType}]*`);
  } else if (message.role === 'assistant') {
    out.push('## Assistant');
    for (const part of message.content) {
      if (part.type === 'text') out.push(part.text);
      else if (part.type === 'thinking') out.push(part.redacted ? '*[redacted thinking]*' : `<details><summary>Thinking</summary>\n\n${part.text}\n\n</details>`);
      else out.push(`**Tool call** \`${part.name}\` (\`${part.id}\`)\n\n${fence(JSON.stringify(part.input, null, 2), 'json')}`);
    }
  } else {
    for (const result of message.content) {
      out.push(`**Tool result** (\`${result.toolCallId}\`)${result.isError ? ' — error' : ''}`);
      const text = result.content.map((c) => (c.type === 'text' ? c.text : `[image: ${c.mediaType}]`)).join('\n');
      out.push(fence(text));
    }
  }
  return out.join('\n\n');
}

/** A session as a Markdown document: a header with its facts, then the conversation. */
export function sessionMarkdown(snapshot: SessionSnapshot): string {
  const { info, usage } = snapshot;
  const head = [
    `# ${info.title ?? 'Untitled session'}`,
    '',
    `- Session: \`${info.id}\``,
    `- Project: \`${info.projectRoot}\``,
    `- Created: ${new Date(info.createdAt).toISOString()}`,
    `- Last active: ${new Date(info.lastActiveAt).toISOString()}`,
    ...(info.model ? [`- Model: ${info.provider ? `${info.provider}/` : ''}${info.model}`] : []),
    ...(info.forkedFrom ? [`- Forked from: \`${info.forkedFrom}\``] : []),
    `- Tokens: ${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.cacheReadTokens} cache read, ${usage.cacheWriteTokens} cache write`,
  ];
  if (snapshot.todos.length) head.push('', '### Plan', '', ...snapshot.todos.map((t) => `- [${t.status === 'completed' ? 'x' : ' '}] ${t.content}${t.status === 'in_progress' ? ' (in progress)' : ''}`));
  return [head.join('\n'), ...snapshot.messages.map(messageMarkdown)].join('\n\n') + '\n';
}
