#!/usr/bin/env bash
# Installs the pinned set of popular MCP servers from npm that tests/host-real-servers.test.ts runs
# behind mcpkit's host and gateway, into .cache/real-servers (git-ignored; nothing of theirs is
# committed). Idempotent: a second run with the same pins installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.cache/real-servers
mkdir -p "$dir"
# The pins: edit here, and the next run installs the new set.
cat > "$dir/package.json.new" <<'JSON'
{
  "name": "mcpkit-real-servers",
  "private": true,
  "description": "Third-party MCP servers the host and gateway are tested against (installed by scripts/install-real-servers.sh)",
  "dependencies": {
    "@modelcontextprotocol/server-everything": "2026.8.31",
    "@modelcontextprotocol/server-filesystem": "2026.8.31",
    "@modelcontextprotocol/server-memory": "2026.8.31",
    "@modelcontextprotocol/server-sequential-thinking": "2026.8.31",
    "@modelcontextprotocol/server-github": "2025.4.8",
    "@modelcontextprotocol/server-gitlab": "2025.4.25",
    "@modelcontextprotocol/server-postgres": "0.6.2",
    "@playwright/mcp": "0.0.83",
    "chrome-devtools-mcp": "1.11.0",
    "@upstash/context7-mcp": "4.1.1",
    "mongodb-mcp-server": "3.0.4",
    "@notionhq/notion-mcp-server": "2.5.2",
    "tavily-mcp": "0.2.22",
    "@circleci/mcp-server-circleci": "0.20.0"
  }
}
JSON
if [ -d "$dir/node_modules" ] && cmp -s "$dir/package.json.new" "$dir/package.json"; then
  rm "$dir/package.json.new"
  exit 0
fi
mv "$dir/package.json.new" "$dir/package.json"
# --ignore-scripts: no server's install step may download a browser or a binary of its own.
(cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error > /dev/null)
echo "real servers installed in $dir"
