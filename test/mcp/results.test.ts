// How a server's tools/call answer becomes what the model sees.
import { describe, expect, it } from 'vitest';
import { MAX_RESULT_CHARS, toToolResult } from '../../dist/plugins/mcp/results.js';

const PNG = Buffer.from('\x89PNG fake').toString('base64');

describe('MCP results for the model', () => {
  it('keeps text and supported images, notes what the model cannot take', () => {
    const result = toToolResult(
      {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'image', data: PNG, mimeType: 'image/tiff' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain', description: 'the a file' },
        ],
      },
      'srv',
      'tool',
    );
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'text', text: '[image (image/tiff) in a format the model cannot take, not shown]' },
        { type: 'text', text: '[audio (audio/wav), about 3 bytes, not shown]' },
        { type: 'text', text: '[resource file:///a.txt "a.txt" (text/plain): the a file]' },
      ],
      metadata: { server: 'srv', tool: 'tool' },
    });
  });

  it('inlines embedded resources: text as a block, images as images, other binary as a note', () => {
    const { content } = toToolResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'mem://notes', mimeType: 'text/markdown', text: '# notes' } },
          { type: 'resource', resource: { uri: 'mem://pic', mimeType: 'image/jpeg', blob: PNG } },
          { type: 'resource', resource: { uri: 'mem://zip', mimeType: 'application/zip', blob: 'AAAAAAAA' } },
        ],
      },
      'srv',
      'tool',
    );
    expect(content).toEqual([
      { type: 'text', text: '<resource uri="mem://notes" mimeType="text/markdown">\n# notes\n</resource>' },
      { type: 'image', mediaType: 'image/jpeg', data: PNG },
      { type: 'text', text: '[binary resource mem://zip (application/zip), about 6 bytes, not shown]' },
    ]);
  });

  it('falls back to structured content, then to a note, when there is no content', () => {
    expect(toToolResult({ content: [], structuredContent: { temperature: 21 } }, 's', 't').content).toEqual([{ type: 'text', text: '{\n  "temperature": 21\n}' }]);
    expect(toToolResult({ content: [] }, 's', 't').content).toEqual([{ type: 'text', text: '(no output)' }]);
    expect(toToolResult({ toolResult: { legacy: true } }, 's', 't').content).toEqual([{ type: 'text', text: '{\n  "legacy": true\n}' }]);
  });

  it('keeps isError as an error result with a stable code, with a message even when the server gave none', () => {
    expect(toToolResult({ content: [{ type: 'text', text: 'no such issue' }], isError: true }, 'gh', 'get_issue')).toEqual({
      content: [{ type: 'text', text: 'no such issue' }],
      isError: true,
      metadata: { server: 'gh', tool: 'get_issue', code: 'ASSISTANT_MCP_TOOL_ERROR' },
    });
    expect(toToolResult({ content: [], isError: true }, 'gh', 'get_issue').content[0]).toEqual({
      type: 'text',
      text: 'get_issue on the MCP server "gh" reported an error without details.',
    });
  });

  it('cuts a flood of text and says how much was left out', () => {
    const big = 'x'.repeat(MAX_RESULT_CHARS);
    const { content } = toToolResult({ content: [{ type: 'text', text: 'head ' }, { type: 'text', text: big }] }, 's', 't');
    const texts = content.map((p) => (p.type === 'text' ? p.text : ''));
    expect(texts.slice(0, -1).join('').length).toBe(MAX_RESULT_CHARS);
    expect(texts.at(-1)).toBe(`[output cut: 5 of ${MAX_RESULT_CHARS + 5} characters left out; ask the tool for less]`);
  });
});
