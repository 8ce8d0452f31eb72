import { describe, expect, it } from 'vitest';
import { schemaDialect, UnsupportedDialectError } from './dialect.js';

describe('schemaDialect on values of unknown shape', () => {
  it('a "$schema" object whose toString is not a function is refused as unsupported, not a TypeError', () => {
    const schema = JSON.parse('{"$schema":{"toString":1,"valueOf":1}}');
    expect(() => schemaDialect(schema)).toThrow(UnsupportedDialectError);
    expect(() => schemaDialect({ $schema: Object.create(null) })).toThrow(UnsupportedDialectError);
  });
});
