#!/usr/bin/env node
/**
 * Builds the console's page with Vite into packages/console/dist/ui (run by `npm run build` and
 * by the console package's `prepack`); the backend serves it from there, offline.
 *
 *   node scripts/build-console-ui.mjs
 * @module
 */
import { build } from 'vite';
import { consoleUiConfig } from './lib/consoleUi.mjs';

await build(consoleUiConfig({ write: true }));
