import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countCharReads } from '../../../../tests/support/charReads.js';
import { assertProperty } from '../../../../tests/support/fastCheck.js';
import { itJudges } from '../../../../tests/support/verdicts.js';
import { isAbsoluteUri, MAX_URI_LENGTH, uriProblem } from './uri.js';

describe('resource URIs', () => {
  // Absolute URIs of any scheme.
  itJudges((uri) => uriProblem(uri) === undefined, {
    accepts: [
      'test://static-text',
      'file:///home/user/notes.md',
      'https://example.com/a?b=c#d',
      'git://github.com/o/r.git',
      'urn:isbn:0451450523',
      'custom+scheme.v1-x://a/%20b',
      'file:///home/user/résumé.txt',
    ],
  });

  it('refuses relative references, spaces, braces, bad escapes and overlong URIs', () => {
    expect(uriProblem('notes.md')).toMatch(/absolute URI with a scheme/);
    expect(uriProblem('/etc/passwd')).toMatch(/absolute URI/);
    expect(uriProblem('1abc://x')).toMatch(/absolute URI/);
    expect(uriProblem('test://a b')).toBe('contains " " at position 8, which a URI may not hold unescaped');
    expect(uriProblem('test://{id}')).toMatch(/"\{"/);
    expect(uriProblem('test://a%2')).toMatch(/malformed percent-escape/);
    expect(uriProblem('test://a\nb')).toMatch(/contains/);
    expect(uriProblem(`test://${'a'.repeat(MAX_URI_LENGTH)}`)).toMatch(/longer than/);
    expect(isAbsoluteUri(42)).toBe(false);
  });

  it('runs in linear time on hostile input: each character is read about once', () => {
    // Counted reads, not milliseconds (speed is for `npm run bench`).
    const hostile = `a${'+'.repeat(MAX_URI_LENGTH - 2)}`;
    const { result, reads } = countCharReads(() => uriProblem(hostile));
    expect(result).toBe('must be an absolute URI with a scheme, such as "file:///notes.md"');
    expect(reads).toBeLessThanOrEqual(2 * hostile.length);
    const escapes = `test:${'%41'.repeat(2700)} `;
    const scanned = countCharReads(() => uriProblem(escapes));
    expect(scanned.result).toBe(
      `contains " " at position ${escapes.length - 1}, which a URI may not hold unescaped`,
    );
    expect(scanned.reads).toBeLessThanOrEqual(2 * escapes.length);
    // And at least once each: the count sees the hand-written scanner (a regex would hide it).
    expect(Math.min(reads, scanned.reads)).toBeGreaterThanOrEqual(hostile.length / 2);
  });

  it('accepts every URI the WHATWG parser builds from a scheme and a path of safe characters', () => {
    assertProperty(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9+.-]{0,8}$/),
        fc.stringMatching(/^[A-Za-z0-9._~/-]{0,20}$/),
        (scheme, path) => {
          expect(uriProblem(`${scheme}://host/${path}`)).toBeUndefined();
        },
      ),
    );
  });
});
