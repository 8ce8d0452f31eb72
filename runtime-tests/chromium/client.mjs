// The scenarios run by the packed client in a Chromium page: this file, bundled for the browser by
// esbuild (lib/chromium.mjs), is the page's only script. The driver calls
// `window.runScenarios(urls)` and reads the results.
import { runScenarios } from '../app/scenarios.mjs';

// A page holds at most 6 connections per host (Chromium's HTTP/1.1 limit), and most scenarios keep
// a standalone GET stream open, so each mode's scenarios run one after another (modes are on
// separate ports and still run at once).
window.runScenarios = (urls) => runScenarios(urls, { serialPerMode: true });
window.scenariosReady = true;
