/**
 * The console page's entry: its styles, the MCP Apps renderer, the app.
 * @module
 */
import { render } from 'preact';
import { App } from './App.js';
import { renderApp } from './appBridge.js';
import { registerAppRenderer } from './apps.js';
import './styles.css';

// MCP Apps render through the host bridge, sandboxed on the backend's second origin.
registerAppRenderer(renderApp);
render(<App />, document.getElementById('app')!);
