import { describe, expect, it } from 'vitest';
import { countCharReads } from '../../../../tests/support/charReads.js';
import { itJudges } from '../../../../tests/support/verdicts.js';
import { isReservedMetaKey, isValidMetaKey, validateMeta } from './meta.js';

describe('isValidMetaKey', () => {
  itJudges(isValidMetaKey, {
    accepts: [
      'progressToken',
      'com.example/cache-hint',
      'io.modelcontextprotocol/related-task',
      'com.example/',
      'a/b',
      'x9.y-z.a1/name_with.dots-and-dashes',
      '',
      'a',
    ],
    rejects: [
      '-name',
      'name-',
      'na me',
      '1com.example/x',
      'com.example-/x',
      'com..example/x',
      '.com/x',
      '/x',
      'com.example/a/b',
      'com.example/_x',
      'com_example/x',
      'com.exämple/x',
    ],
  });

  it('stays linear on hostile input: each character is read a bounded number of times', () => {
    // Counted reads, not milliseconds (speed is for `npm run bench`).
    const hostile = `${'a-'.repeat(200_000)}!/${'b.'.repeat(200_000)}`;
    const valid = countCharReads(() => isValidMetaKey(hostile));
    const reserved = countCharReads(() => isReservedMetaKey(hostile));
    expect([valid.result, reserved.result]).toEqual([false, false]);
    expect(valid.reads + reserved.reads).toBeLessThanOrEqual(4 * hostile.length);
    const labels = `${'a.'.repeat(100_000)}${'b-'.repeat(100_000)}b/${'n_'.repeat(100_000)}n`;
    const long = countCharReads(() => isValidMetaKey(labels));
    expect(long.result).toBe(true);
    expect(long.reads).toBeLessThanOrEqual(2 * labels.length);
    // And at least once each: the count sees the hand-written scanner (a regex would hide it).
    expect(long.reads).toBeGreaterThanOrEqual(labels.length / 2);
  });
});

describe('isReservedMetaKey', () => {
  describe('uses the 2025-11-25 second-label rule by default', () => {
    itJudges(isReservedMetaKey, {
      accepts: [
        'io.modelcontextprotocol/x',
        'dev.mcp/x',
        'org.modelcontextprotocol.api/x',
        'com.mcp.tools/x',
      ],
      rejects: ['com.example.mcp/x', 'mcp/x', 'modelcontextprotocol.io/x', 'progressToken', 'com.example/x'],
    });
  });

  it('compares labels without regard to case', () => {
    expect(isReservedMetaKey('IO.MCP/x')).toBe(true);
  });

  describe('uses the 2025-06-18 rule for 2025-06-18', () => {
    itJudges((key) => isReservedMetaKey(key, '2025-06-18'), {
      accepts: [
        'modelcontextprotocol.io/x',
        'mcp.dev/x',
        'api.modelcontextprotocol.org/x',
        'tools.mcp.com/x',
      ],
      rejects: ['io.modelcontextprotocol/x', 'com.example.mcp/x'],
    });
  });

  it('reserves nothing by prefix in revisions without key rules', () => {
    expect(isReservedMetaKey('io.modelcontextprotocol/x', '2025-03-26')).toBe(false);
    expect(isReservedMetaKey('mcp.dev/x', '2024-11-05')).toBe(false);
  });

  it('is false for invalid keys', () => {
    expect(isReservedMetaKey('io.modelcontextprotocol/-x')).toBe(false);
  });
});

describe('validateMeta', () => {
  it('accepts well-formed metadata and the keys MCP defines', () => {
    expect(
      validateMeta({
        progressToken: 'p1',
        'com.example/trace': { id: 1 },
        'io.modelcontextprotocol/related-task': { taskId: 't1' },
        'io.modelcontextprotocol/model-immediate-response': 'Working on it',
      }),
    ).toEqual([]);
  });

  it('reports a non-object', () => {
    expect(validateMeta(null)).toEqual(['_meta must be an object']);
    expect(validateMeta([])).toEqual(['_meta must be an object']);
  });

  it('reports invalid keys, reserved prefixes and mistyped MCP keys', () => {
    const problems = validateMeta({
      'bad key': 1,
      'dev.mcp/mine': 1,
      progressToken: 1.5,
      'io.modelcontextprotocol/related-task': { id: 't' },
    });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toContain('"bad key" is not a valid key');
    expect(problems[1]).toBe('_meta key "dev.mcp/mine" uses a prefix reserved for MCP');
    expect(problems[2]).toBe('_meta.progressToken must be a string or an integer');
    expect(problems[3]).toContain('must be an object with a string "taskId"');
  });

  it('honours the revision and allowReservedKeys', () => {
    expect(validateMeta({ 'mcp.dev/x': 1 })).toEqual([]);
    expect(validateMeta({ 'mcp.dev/x': 1 }, { version: '2025-06-18' })).toHaveLength(1);
    expect(
      validateMeta({ 'io.modelcontextprotocol/related-task': { taskId: 't' } }, { version: '2025-06-18' }),
    ).toEqual([]);
    expect(validateMeta({ 'dev.mcp/mine': 1 }, { allowReservedKeys: true })).toEqual([]);
  });

  it('shortens very long keys in messages', () => {
    const [problem] = validateMeta({ [`${'x'.repeat(500)} `]: 1 });
    expect(problem!.length).toBeLessThan(300);
  });
});
