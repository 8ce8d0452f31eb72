/**
 * mcpkit serving revision 2026-07-28 (the `http-2026` rows): the same server definition and handler
 * as `mcpkit-http.mjs`, in the mode the harness asks (`stateless`). Nothing here is specific to the
 * revision: the handler classifies each POST, and one carrying the `_meta` envelope is served per
 * request in every mode, beside 2025 traffic on the same endpoint.
 * @module
 */
import { serveEcho } from './mcpkit-http.mjs';

await serveEcho();
