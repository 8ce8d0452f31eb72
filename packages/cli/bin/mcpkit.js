#!/usr/bin/env node
// The `mcpkit` command. The CLI itself is TypeScript compiled to dist/ by `npm run build`
// (run by `npm ci` through the root `prepare` script).
try {
  await import('../dist/main.js');
} catch (error) {
  // After `npm ci --ignore-scripts` (or a fresh clone) nothing is compiled yet: say so, rather
  // than die with Node's raw ERR_MODULE_NOT_FOUND and its stack.
  const missing =
    error?.code === 'ERR_MODULE_NOT_FOUND' && /[\\/]dist[\\/]|@mcpkit\//.test(String(error.message));
  if (!missing) throw error;
  process.stderr.write(
    `Error: mcpkit is not built: ${error.message.split('\n')[0]}\n` +
      'Try: build the packages first: npm run build (in the mcpkit repository), or install the packed\n' +
      '     tarballs as the README says ("Installing from a checkout": npm run pack:all)\n',
  );
  process.exitCode = 1;
}
