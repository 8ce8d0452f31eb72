/**
 * `mcpkit gateway`'s library form over Streamable HTTP, for the gateway-share scenarios: N echo
 * upstreams over stdio (bench/servers/mcpkit-stdio.mjs), optionally one that cannot start and one
 * that floods its caller with log messages. Prints `READY <port>`; answers `bench:children` over
 * IPC with the number of upstream processes it runs (and `bench:memory`, through the agent).
 *
 *   BENCH_UPSTREAMS=3 BENCH_DEAD=1 BENCH_FLOOD=1 BENCH_UPSTREAM_MODE=shared node bench/servers/gateway-share.mjs
 * @module
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { serve } from '@mcpkit/node/http';

const here = path.dirname(fileURLToPath(import.meta.url));
const base = { disabled: false, autoApprove: [], env: {} };
const stdio = (name, script, args = []) => ({
  ...base,
  kind: 'stdio',
  name,
  command: process.execPath,
  args: [path.join(here, script), ...args],
});

const count = Number(process.env.BENCH_UPSTREAMS ?? 3);
const servers = Array.from({ length: count }, (_, i) => stdio(`s${i + 1}`, 'mcpkit-stdio.mjs'));
// A server that exits at once, as one without its token does.
if (process.env.BENCH_DEAD === '1')
  servers.push({ ...stdio('dead', 'mcpkit-stdio.mjs'), args: ['-e', 'process.exit(1)'] });
if (process.env.BENCH_FLOOD === '1') servers.push(stdio('flood', 'flood-stdio.mjs'));

const gateway = createGateway({
  host: { servers, connector: nodeConnector() },
  upstreams: process.env.BENCH_UPSTREAM_MODE === 'perSession' ? 'perSession' : 'shared',
});
const served = await serve(gateway.httpHandler(), { port: 0, path: '/mcp' });

process.on('message', (message) => {
  if (message?.type !== 'bench:children') return;
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  // `ps` itself is a child of ours while it runs.
  const children = out.split('\n').filter((line) => line.trim() !== '').length - 1;
  process.send?.({ type: 'bench:children', id: message.id, children });
});
process.once('SIGTERM', async () => {
  await served.close();
  await gateway.close();
  process.exit(0);
});
process.stdout.write(`READY ${new URL(served.url).port}\n`);
