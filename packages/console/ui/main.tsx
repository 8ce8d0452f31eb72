/**
 * The console page's entry: its styles, the one event stream, the app.
 * @module
 */
import { render } from 'preact';
import { App } from './App.js';
import './styles.css';

render(<App />, document.getElementById('app')!);
