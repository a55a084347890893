import type { JsonSchema } from '../core/types/json-schema.js';

const ruleList = { type: 'array', items: { type: 'string', minLength: 1 } };
const perMillion = { type: 'number', minimum: 0 };
const modelPrice = {
  type: 'object',
  additionalProperties: false,
  required: ['input', 'output'],
  properties: { input: perMillion, output: perMillion, cacheRead: perMillion, cacheWrite: perMillion },
};

/** JSON Schema of the keys the core owns. Plugins validate their own keys (`configKey`). */
export const coreConfigSchema: JsonSchema = {
  $id: 'https://assistant.dev/schemas/assistantrc.json',
  type: 'object',
  properties: {
    $schema: { type: 'string' },
    extends: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'array', items: { type: 'string', minLength: 1 } }] },
    plugins: {
      type: 'array',
      items: {
        anyOf: [
          { type: 'string', minLength: 1 },
          {
            type: 'array',
            minItems: 1,
            maxItems: 2,
            items: [{ type: 'string', minLength: 1 }, { anyOf: [{ type: 'object' }, { const: false }] }],
          },
        ],
      },
    },
    provider: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        model: { type: 'string', minLength: 1 },
      },
    },
    permissions: {
      type: 'object',
      properties: {
        mode: { enum: ['default', 'acceptEdits', 'plan', 'bypass'] },
        allow: ruleList,
        ask: ruleList,
        deny: ruleList,
      },
    },
    context: {
      type: 'object',
      properties: { strategy: { type: 'string', minLength: 1 } },
    },
    persistence: {
      type: 'object',
      properties: {
        store: { type: 'string', minLength: 1 },
        /** Record provider requests/responses and tool input/output for `assistant replay`. */
        record: { type: 'boolean' },
      },
    },
    pricing: {
      type: 'object',
      additionalProperties: { type: 'object', additionalProperties: modelPrice },
    },
    sandbox: {
      anyOf: [
        { enum: ['auto', 'required', 'off'] },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            mode: { enum: ['auto', 'required', 'off'] },
            network: { type: 'boolean' },
            writable: { type: 'array', items: { type: 'string', minLength: 1 } },
          },
        },
      ],
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxTurns: { type: 'integer', minimum: 1 },
        maxToolFailures: { type: 'integer', minimum: 1 },
        repeatedCallLimit: { type: 'integer', minimum: 2 },
        maxTokens: { type: 'integer', minimum: 1 },
        maxCostUsd: { type: 'number', exclusiveMinimum: 0 },
      },
    },
  },
};
