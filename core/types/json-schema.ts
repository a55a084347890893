/** A JSON Schema document (draft 2020-12 / draft-07 subset that ajv understands). */
export type JsonSchema = {
  [key: string]: unknown;
};

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
