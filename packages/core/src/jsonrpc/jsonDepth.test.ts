import { describe, expect, it } from 'vitest';
import { countCharReads } from '../../../../tests/support/charReads.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../index.js';
import { exceedsJsonDepth } from '../internal.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('exceedsJsonDepth', () => {
  it('counts arrays and objects, and stops counting at the limit', () => {
    expect(exceedsJsonDepth(nested(3), 3)).toBe(false);
    expect(exceedsJsonDepth(nested(4), 3)).toBe(true);
    expect(exceedsJsonDepth('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
    expect(exceedsJsonDepth('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
    // Siblings do not add up: depth goes back down.
    expect(exceedsJsonDepth(`[${Array(1000).fill('[[1]]').join(',')}]`, 3)).toBe(false);
  });

  it('needs more characters than the limit to exceed it, and finds it at the first one over', () => {
    expect(exceedsJsonDepth('[[[', 3)).toBe(false); // no longer than the limit: not scanned
    expect(exceedsJsonDepth('[[[[', 3)).toBe(true); // one more: scanned, and too deep
    expect(exceedsJsonDepth('[[[1', 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(JSON.stringify({ s: '[[[[{{{{' }), 1)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify({ s: 'say \\"[[[[\\" \\\\' }), 1)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify(['\\', [[1]]]), 2)).toBe(true);
  });

  it('passes every message that JSON.stringify builds at the default depth', () => {
    let value: unknown = { leaf: true };
    for (let depth = 1; depth < DEFAULT_MAX_JSON_DEPTH; depth++) value = [value];
    expect(exceedsJsonDepth(JSON.stringify(value), DEFAULT_MAX_JSON_DEPTH)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify([value]), DEFAULT_MAX_JSON_DEPTH)).toBe(true);
  });

  it('reads a 4 MiB message of strings in far fewer steps than its length, and a million-deep attack only to the limit', () => {
    const big = JSON.stringify({
      items: Array.from({ length: 40_000 }, (_, n) => ({ n, text: 'x'.repeat(80), list: [n, [n]] })),
    });
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    // Counted reads, not milliseconds (speed is for `npm run bench`): strings, most of the bytes,
    // are jumped over with indexOf, so a char-by-char scan would read every one of them.
    const scan = countCharReads(() => exceedsJsonDepth(big, DEFAULT_MAX_JSON_DEPTH));
    expect(scan.result).toBe(false);
    expect(scan.reads, `${scan.reads} reads of ${big.length} characters`).toBeLessThan(big.length / 2); // 28% here
    // The attack: a million-deep array is refused after reading DEFAULT_MAX_JSON_DEPTH + 1 characters.
    const attack = countCharReads(() => exceedsJsonDepth(nested(1_000_000), DEFAULT_MAX_JSON_DEPTH));
    expect(attack).toEqual({ result: true, reads: DEFAULT_MAX_JSON_DEPTH + 1 });
  });
});
