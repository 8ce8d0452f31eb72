/**
 * Baseline stdio server: newline-delimited JSON in, newline-delimited JSON out, no framework. Responses to
 * all the lines of one input chunk go out in one write.
 * @module
 */
import { answer } from './bare-echo.mjs';

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const text = pending + chunk;
  let out = '';
  let start = 0;
  let newline = text.indexOf('\n', start);
  while (newline !== -1) {
    const line = text.slice(start, newline);
    start = newline + 1;
    newline = text.indexOf('\n', start);
    if (line.length === 0) continue;
    let reply;
    try {
      reply = answer(JSON.parse(line));
    } catch {
      reply = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    }
    if (reply) out += `${JSON.stringify(reply)}\n`;
  }
  pending = text.slice(start);
  if (out) process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));
