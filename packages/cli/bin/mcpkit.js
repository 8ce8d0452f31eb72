#!/usr/bin/env node
// The `mcpkit` command. The CLI itself is TypeScript compiled to dist/ by `npm run build`
// (run by `npm ci` through the root `prepare` script).
import '../dist/main.js';
