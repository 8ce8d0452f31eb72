// The gateway's client side is mcpkit's own stdio client: only the server differs.
export { connect } from './mcpkit-stdio.mjs';
