import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import { authFailure, redactSecrets } from './failure.js';

describe('redactSecrets', () => {
  it('removes bearer and basic credentials, token parameters and their JSON forms', () => {
    const text = [
      'authorization: Bearer eyJhbGciOi.eyJzdWIi.sig',
      '"Authorization": "Basic bTJtOnNlY3JldA=="',
      'Basic arithmetic with a Bearer',
      'POST /token grant_type=refresh_token&refresh_token=rt-123&client_secret=s3cr3t',
      'https://app/cb?code=abc123&state=xyz',
      '{"access_token": "at-456", "refreshToken":"rt-789", "scope":"mcp:read"}',
    ].join('\n');
    const redacted = redactSecrets(text);
    for (const secret of ['eyJhbGciOi', 'bTJtOnNlY3JldA', 'rt-123', 's3cr3t', 'abc123', 'at-456', 'rt-789']) {
      expect(redacted).not.toContain(secret);
    }
    expect(redacted).toContain('state=xyz');
    expect(redacted).toContain('Basic arithmetic with a Bearer');
    expect(redacted).toContain('"scope":"mcp:read"');
    expect(redacted).toContain('grant_type=refresh_token');
    // A tool's own "code" argument stays readable in a trace.
    expect(redactSecrets('{"name":"run","arguments":{"code":"print(1)"}}')).toContain('print(1)');
  });
});

describe('authFailure', () => {
  it('turns an AuthorizationError anywhere in the causes into exit code 3, and passes a CliError through', () => {
    const failure = Object.assign(new Error('token request failed: invalid_grant'), {
      name: 'AuthorizationError',
    });
    const wrapped = new Error('connect failed', { cause: failure });
    expect(authFailure(wrapped, 'https://mcp.example.com/mcp')).toMatchObject({
      exitCode: 3,
      message: 'Could not log in: token request failed: invalid_grant',
    });
    const own = new CliError(3, 'needs you to log in');
    expect(authFailure(new Error('x', { cause: own }), undefined)).toBe(own);
    expect(authFailure(new Error('other'), undefined)).toBeUndefined();
  });
});
