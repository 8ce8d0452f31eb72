// The gateway over stdio, fronting the minimal mcpkit stdio server as its one upstream (shared
// upstream connection: the bench's client is one session). The tool keeps its name (`echo`): one
// server, no collision. Compared with `mcpkit` in the stdio rows: the cost of the extra hop.
// Argument `perSession`: a host per session instead (under 2026-07-28 a pool of hosts, each with
// its own upstream process, leased one request at a time); shared is the gateway's default.
import { fileURLToPath } from 'node:url';
import { createGateway } from '@mcpkit/host/gateway';
import { nodeConnector } from '@mcpkit/host/node';
import { StdioServerTransport } from '@mcpkit/node/stdio';

const upstream = fileURLToPath(new URL('./mcpkit-stdio.mjs', import.meta.url));
const gateway = createGateway({
  host: {
    servers: [
      {
        kind: 'stdio',
        name: 'echo',
        command: process.execPath,
        args: [upstream],
        env: {},
        disabled: false,
        autoApprove: [],
      },
    ],
    connector: nodeConnector(),
    policy: { echo: { trusted: true } },
  },
  upstreams: process.argv[2] === 'perSession' ? 'perSession' : 'shared',
});
gateway.connect(new StdioServerTransport()).onClose(() => void gateway.close());
