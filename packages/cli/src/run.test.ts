import { HttpTransportError } from '@mcpkit/client/http';
import {
  CapabilityError,
  ConnectionClosedError,
  ErrorCode,
  McpError,
  RequestTimeoutError,
  UnsupportedProtocolVersionError,
} from '@mcpkit/core';
import { StdioServerProcessError } from '@mcpkit/node/stdio';
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from './errors.js';
import { toCliError } from './run.js';

const httpTarget = {
  kind: 'http',
  url: new URL('http://127.0.0.1:3000/mcp'),
  headers: {},
  legacySse: false,
} as const;
const context = { target: httpTarget, reason: undefined, targetHint: 'http://127.0.0.1:3000/mcp' };

describe('toCliError', () => {
  it('gives each kind of failure its exit code and a hint', () => {
    const refused = new HttpTransportError('POST failed: fetch failed', undefined, {
      cause: Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      }),
    });
    const cases: Array<[unknown, number, string]> = [
      [new CliError(ExitCode.Usage, 'bad'), ExitCode.Usage, 'bad'],
      [refused, ExitCode.Connection, 'Could not connect to http://127.0.0.1:3000/mcp: connection refused.'],
      [new HttpTransportError('POST failed: HTTP 401', 401), ExitCode.Connection, 'HTTP 401'],
      [
        new ConnectionClosedError('The connection closed: gone'),
        ExitCode.Connection,
        'The server closed the connection',
      ],
      [
        new ConnectionClosedError(
          'closed',
          new StdioServerProcessError('MCP server process "x" exited with code 1', 'x', 1, null, 'oops\n'),
        ),
        ExitCode.Connection,
        'exited with code 1',
      ],
      [new UnsupportedProtocolVersionError('1999-01-01', ['2025-11-25']), ExitCode.Connection, '1999-01-01'],
      [
        new McpError(ErrorCode.InternalError, 'kaput'),
        ExitCode.Connection,
        'The server answered with an error: kaput',
      ],
      [
        new McpError(ErrorCode.ResourceNotFound, 'no such'),
        ExitCode.Usage,
        'The server has no such resource',
      ],
      [new CapabilityError('The server did not declare "prompts"'), ExitCode.Usage, 'did not declare'],
      [new RequestTimeoutError('tools/call', 1000, 'timeout'), ExitCode.Timeout, 'timed out after 1000 ms'],
      [new TypeError('x is not a function'), ExitCode.Internal, 'Unexpected failure: x is not a function'],
    ];
    for (const [error, code, message] of cases) {
      const mapped = toCliError(error, context);
      expect(mapped.exitCode, message).toBe(code);
      expect(mapped.message).toContain(message);
    }
    expect(toCliError(new TypeError('x'), context).hint).toContain('bug in mcpkit');
    expect(toCliError(refused, context).hint).toBe(
      'Is the server running? Start the demo server with: npx mcpkit serve',
    );
  });

  it('a handshake that times out exits 5 (timeout), not 3, as the README says', () => {
    const failure = toCliError(new RequestTimeoutError('initialize', 5000, 'timeout'), {
      ...context,
      connected: false,
    });
    expect(failure.exitCode).toBe(ExitCode.Timeout);
    expect(failure.message).toContain('The server did not answer the handshake');
  });

  it('puts the real target into hints, a stdio command last', () => {
    const usage = new CliError(ExitCode.Usage, 'no tool', 'Usage: mcpkit call TARGET echo text=<string>');
    expect(toCliError(usage, context).hint).toBe(
      'Usage: mcpkit call http://127.0.0.1:3000/mcp echo text=<string>',
    );
    const stdio = { ...context, targetHint: '-- node server.js' };
    expect(toCliError(usage, stdio).hint).toBe('Usage: mcpkit call echo text=<string> -- node server.js');
  });
});
