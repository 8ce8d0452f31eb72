/**
 * The examples a user copies, run as a user runs them (`node --import register-ts examples/x.ts`),
 * so a snippet in the docs cannot rot while still type-checking.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

async function runExample(file: string): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', './conformance/register-ts.mjs', file], {
    cwd: root,
    timeout: 60_000,
  });
}

describe('examples/otel.ts: the complete OpenTelemetry set-up', () => {
  it('prints a client and a server span of one call in one trace, and the MCP histograms', async () => {
    const { stdout, stderr } = await runExample('examples/otel.ts');
    expect(stderr).toContain('result: [{"type":"text","text":"traced"}]');
    // ConsoleSpanExporter prints one object per span; pick the two spans of the tool call.
    const spans = stdout.split(/\n(?=\{)/).filter((block) => block.includes("name: 'tools/call echo'"));
    expect(spans).toHaveLength(2);
    const traceIds = spans.map((block) => /traceId: '([0-9a-f]{32})'/.exec(block)?.[1]);
    expect(traceIds[0]).toBeDefined();
    expect(traceIds[1]).toBe(traceIds[0]);
    expect(spans.map((block) => /kind: (\d)/.exec(block)?.[1]).sort()).toEqual(['1', '2']); // SERVER, CLIENT
    expect(stdout).toContain("name: 'mcp.server.operation.duration'");
    expect(stdout).toContain("name: 'mcp.client.operation.duration'");
  });
});
