import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../tests/support/fastCheck.js';
import { itJudges } from '../../../../tests/support/verdicts.js';
import { isValidToolName, MAX_TOOL_NAME_LENGTH, toolNameProblem } from './toolName.js';

describe('tool names', () => {
  // 1 to 128 characters from A-Z a-z 0-9 _ - .
  itJudges(isValidToolName, {
    accepts: ['a', 'getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'x-y', 'x'.repeat(MAX_TOOL_NAME_LENGTH)],
  });

  it('names the problem for everything else', () => {
    expect(toolNameProblem('')).toBe('must not be empty');
    expect(toolNameProblem('x'.repeat(129))).toBe('is 129 characters long; the limit is 128');
    expect(toolNameProblem('a b')).toBe(
      'contains " " at position 1; use only A-Z, a-z, 0-9, "_", "-" and "."',
    );
    expect(toolNameProblem('a,b')).toContain('","');
    expect(toolNameProblem('café')).toContain('"é"');
    expect(toolNameProblem(7)).toBe('must be a string');
  });

  it('agrees with the specification grammar on arbitrary strings', () => {
    assertProperty(
      fc.property(fc.string({ maxLength: 140 }), (name) => {
        const expected = name.length >= 1 && name.length <= 128 && /^[A-Za-z0-9_.-]*$/.test(name);
        expect(isValidToolName(name)).toBe(expected);
      }),
    );
  });
});
