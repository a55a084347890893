import type { ErrorObject, ValidateFunction } from 'ajv';
import { compileSchema, valueAt } from '../util/json-validate.js';
import type { ToolDefinition } from '../types/tools.js';

/** Compiles each tool's input schema once, on its first call. */
export class InputValidators {
  private readonly compiled = new WeakMap<ToolDefinition<any>, ValidateFunction | Error>();

  /** Checks (and fills defaults into) `input`; returns a message the model can act on, or undefined when valid. */
  check(definition: ToolDefinition<any>, input: Record<string, unknown>): string | undefined {
    let validate = this.compiled.get(definition);
    if (!validate) {
      try {
        validate = compileSchema(definition.inputSchema);
      } catch (error) {
        validate = error as Error;
      }
      this.compiled.set(definition, validate);
    }
    if (validate instanceof Error)
      return `the tool "${definition.name}" has a broken input schema (${validate.message}); it cannot be called until its plugin is fixed`;
    if (validate(input)) return undefined;
    const problems = describeInputErrors(validate.errors ?? [], input, definition.inputSchema);
    return `Invalid input for ${definition.name}:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix the input and call ${definition.name} again.`;
  }
}

function fieldName(pointer: string): string {
  return pointer ? pointer.slice(1).replace(/\//g, '.') : 'input';
}

function preview(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** One plain sentence per problem: which field, what is wrong, what was given. */
export function describeInputErrors(errors: readonly ErrorObject[], input: unknown, schema: object): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const field = fieldName(e.instancePath);
    const got = valueAt(input, e.instancePath);
    switch (e.keyword) {
      case 'required': {
        const missing = (e.params as { missingProperty: string }).missingProperty;
        lines.add(`missing required field "${e.instancePath ? `${field}.` : ''}${missing}"`);
        break;
      }
      case 'additionalProperties': {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        const allowed = Object.keys((valueAt(schema, schemaPointer(e.schemaPath)) as Record<string, unknown>) ?? {});
        lines.add(`unknown field "${e.instancePath ? `${field}.` : ''}${extra}"${allowed.length ? ` (known fields: ${allowed.join(', ')})` : ''}`);
        break;
      }
      case 'type':
        lines.add(`"${field}" must be ${(e.params as { type: string }).type} (got ${preview(got)})`);
        break;
      case 'enum':
        lines.add(`"${field}" must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')} (got ${preview(got)})`);
        break;
      default:
        lines.add(`"${field}" ${e.message ?? `fails ${e.keyword}`} (got ${preview(got)})`);
    }
  }
  return [...lines];
}

/** `#/properties/x/additionalProperties` → the pointer of the sibling `properties` object. */
function schemaPointer(schemaPath: string): string {
  return schemaPath.replace(/^#/, '').replace(/\/additionalProperties$/, '/properties');
}
