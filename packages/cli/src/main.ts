/**
 * The process entry of `mcpkit` (bin/mcpkit.js imports the built copy of this file).
 * @module
 */
import { processIo, runCli } from './run.js';

const code = await runCli(process.argv.slice(2), processIo());
process.exitCode = code;
// Exit once stdout and stderr have handed everything over (they may be pipes): an idle keep-alive
// socket or a server's half-closed stream must not keep a finished command alive.
let pending = 2;
const flushed = () => {
  if (--pending === 0) process.exit(code);
};
process.stdout.write('', flushed);
process.stderr.write('', flushed);
