/**
 * The baseline of the `http-2026` rows: `bare-http.mjs` in stateless mode. It adds the `resultType`
 * that revision requires and otherwise ignores the `_meta` envelope and the `Mcp-*` headers: the
 * least a server can do with them.
 * @module
 */
import './bare-http.mjs';
