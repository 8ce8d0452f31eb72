/**
 * `mcpkit --help` and `mcpkit VERB --help`.
 * @module
 */
import { createRequire } from 'node:module';
import type { Verb } from './args.js';
import type { Style } from './output.js';

/** The version of the `mcpkit` package (from its package.json, in source and in dist alike). */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;

const TARGETS = `Targets (where the server is):
  URL                      Streamable HTTP, falling back to legacy HTTP+SSE: http://127.0.0.1:3000/mcp
  -- COMMAND [ARGS…]       a stdio server started by COMMAND; \`--\` always ends the line
  --config FILE [--server NAME]
                           an entry of an mcpServers JSON file (Claude Desktop, Cursor, VS Code)`;

const CLIENT_OPTIONS = `Options:
  --json                   print exact JSON on stdout (for scripts and jq)
  -t, --timeout DURATION   give up after DURATION: 30 (seconds), 30s, 500ms, 2m
  -H, --header 'K: V'      an HTTP header (repeatable)
  -e, --env KEY=VAL        an environment variable of the stdio server (repeatable)
  --cwd DIR                the stdio server's working directory
  --root DIR               a root the server may ask for (repeatable)
  --sampling-command CMD   answer sampling requests: CMD gets the request as JSON on stdin and
                           prints the result (JSON, or plain text taken as the reply)
  --log-level LEVEL        ask the server for log messages from LEVEL up (debug … emergency)
  --era ERA                protocol era: auto (default: 2026-07-28 if the server speaks it, else
                           initialize), 2026 (require it), 2025 (initialize only)
  -v, --verbose            print every JSON-RPC message, both ways, with timing, on stderr
                           (tokens and secrets are redacted)
  --client-id ID           log in with this pre-registered OAuth client (else mcpkit registers
                           itself, or uses a client id given to an earlier login)
  --client-secret SECRET   the secret of that client, if it has one (or set MCPKIT_CLIENT_SECRET,
                           which other users cannot see in ps)
  --scope SCOPE            OAuth scope to ask for when the server names none
                           (with --config: an entry's own "oauth" clientId, clientSecret and
                           scope win for its server; these fill in what it leaves out)
  --no-login               never open a browser to log in; exit 3 when the server needs a login
  -h, --help               help`;

const EXIT_CODES = `Exit codes:
  0    success
  1    unexpected internal error (a bug in mcpkit)
  2    usage error: bad command line, config file or arguments; unknown tool, prompt or resource
  3    connection or protocol error: unreachable, died, error answer, or a login that may not run
  4    the tool ran and returned isError: true
  5    timeout (--timeout, or a handshake or request that got no answer in time)
  6    replay: an answer differs from the recorded one
  130  interrupted by Ctrl-C or SIGTERM (the server is sent notifications/cancelled)
Errors go to stderr with what to try; stdout only ever carries results (with --json, the exact
JSON result, which is printed for a tool's isError result too).`;

const AUTHORIZATION = `Authorization: when an HTTP server answers 401, a command run on a terminal logs in with
OAuth by itself: it opens your browser (or prints the URL to open) and receives the redirect on
http://127.0.0.1:PORT/callback. Tokens are cached per server in the user's config directory
($XDG_CONFIG_HOME/mcpkit or ~/.config/mcpkit, files only you can read) and refreshed as they
expire. Off a terminal, or with --no-login, the command exits 3 instead: run mcpkit login URL first.`;

const OVERVIEW = `mcpkit: talk to any MCP server from the shell, and run a demo server.

Usage: mcpkit VERB [OPTIONS] [TARGET] [VERB-ARGS…] [-- COMMAND…]

Verbs:
  info                                server info, instructions, revision, capabilities
  list [tools|resources|templates|prompts]
                                      list them (all kinds when none is given)
  call TOOL [key=value…] [--args JSON] [--task] [--out DIR]
                                      call a tool; values are typed by its inputSchema
  read URI                            read a resource
  get PROMPT [key=value…]             get a prompt
  complete PROMPT|TEMPLATE NAME=PARTIAL [name=value…]
                                      complete a prompt argument or template variable
  ping                                ping the server
  watch [URI…]                        print resource updates and list changes as they come
  login                               log in to an HTTP server that asks for OAuth
  logout                              delete the cached tokens of a server
  serve [--http|--stdio]              run the demo server
  dev FILE [--http|--stdio]           run a server file (TypeScript too), restarted on every
                                      change while your client stays connected
  gateway --config FILE (--stdio|--http) [--metrics-port N]
                                      serve every server of FILE as one MCP server
  auth-server [--port N]              a development OAuth authorization server on 127.0.0.1
  console [--no-open]                 open the web console on the target (a URL, -- COMMAND,
                                      or --config FILE: every server of it behind a host)
  replay FILE [--ignore PATH…]        replay a session the console saved; exit 6 when an answer
                                      changed (for CI)

${TARGETS}

${CLIENT_OPTIONS}

Server output: log notifications and progress go to stderr; results go to stdout. On a terminal,
long calls show a progress bar and server questions (elicitation) are asked field by field;
elsewhere they are declined.

${AUTHORIZATION}

${EXIT_CODES}

Examples:
  npx mcpkit serve                                        # demo server on http://127.0.0.1:3000/mcp
  npx mcpkit list http://127.0.0.1:3000/mcp
  npx mcpkit call --json http://127.0.0.1:3000/mcp echo text=hi
  npx mcpkit call echo text=hi -- node server.js
  npx mcpkit read http://127.0.0.1:3000/mcp demo://readme
  npx mcpkit info --config ~/.cursor/mcp.json --server github

More: mcpkit VERB --help
`;

const VERB_HELP: Readonly<Record<Verb, string>> = {
  'auth-server': `Usage: mcpkit auth-server [--port N]

Runs an OAuth 2.1 authorization server for development on http://127.0.0.1:N (default 9000;
0 picks a free port), so that "mcpkit serve --auth-issuer" and "mcpkit login" can be tried
without an identity provider. Its login page accepts any name and password (the banner suggests
the test user dev-user), it grants the scopes mcp:read and mcp:write, and keys, clients and tokens
live in memory only. For development only: it binds 127.0.0.1 and nothing else.

Needs the oidc-provider package beside mcpkit (npm install -D oidc-provider); mcpkit loads it only
for this verb.

  -p, --port N      port of 127.0.0.1 (default 9000)

Example:
  npx mcpkit auth-server                                         # prints its issuer
  npx mcpkit serve --http --auth-issuer http://127.0.0.1:9000    # in another terminal
  npx mcpkit login http://127.0.0.1:3000/mcp`,
  console: `Usage: mcpkit console [URL | --config FILE [--server NAME] | -- COMMAND ARGS…] [--no-open] [--era ERA]

Starts the web console on 127.0.0.1 (a random port, a random token in its URL) and opens it in
your browser (--no-open: only print the URL). It is connected to the target with its tools
listed: fill a tool's form and call it, read and subscribe to resources, get prompts, answer what
the server asks (elicitation forms, sampling requests), watch every JSON-RPC message both ways
and copy any request as an mcpkit command line. With --config FILE and no --server, every server
of FILE runs behind one host: each server's state, the namespaced catalogue, consent and the
host's policy decisions. The page is served from the installed package (no CDN, no telemetry);
only the page the console printed can use it (token, Host and Origin checked). An HTTP server that
asks for OAuth gets the tokens "mcpkit login" cached, refreshed; else the page shows why it asks
and a "Log in" link (on a terminal or not), the steps shown as they happen (--client-id,
--client-secret, --scope as for every verb; --no-login: cached tokens only). Ctrl-C stops it. See docs/console.md.`,
  replay: `Usage: mcpkit replay FILE [URL | --config FILE [--server NAME] | -- COMMAND ARGS…] [--ignore PATH…] [--approve-all] [--json]

Replays a session the console saved (Protocol log, "Save session") against the target, without a
browser: each recorded request (tool calls, reads, prompts, the lists) is sent again in order and
its answer compared field by field with the recorded one; every path added, removed or changed is
printed with its old and new value. The target is always the one you give: the command recorded
in the file is shown, never run. A session saved against a host (console --config) names each
exchange's server: with --config FILE of several servers, each goes to its server through a host
of FILE's servers, under the name its catalogue gives it now. Nobody is there to answer that host:
a tool that needs consent is refused unless the server's "autoApprove" lists it or --approve-all
is given, and a server that asks for an elicitation or a model completion (sampling) during a
call gets an error at once, naming it and what it asked (that call then shows as changed).

What is compared: a call's content, structuredContent and isError; a read's contents; a prompt's
description and messages; a list's items, matched by name (resources by URI); an error's code and
message. Key order never matters.

  --ignore PATH     leave PATH out of every comparison (repeatable), for what differs on every run:
                    structuredContent.requestId, content[0].text, resources["demo://clock"];
                    * is any one key or index, ** any number (**.timestamp). Paths under the
                    session's own "ignore" array apply too.
  --approve-all     with --config FILE: run every recorded tool call, even one that needs consent
                    (you chose to re-run them; for this replay only)
  --json            the report as JSON: { same, total, changed, ignore, exchanges: [{ server?,
                    method, params, same, differences: [{ change, path, before, after }] }] }

Exit codes: 0 every answer is the same, 6 an answer changed (an error where there was a result
counts), 2 the file is not a saved session, 3 the server could not be reached or the connection
was lost, 5 timeout.

Examples:
  npx mcpkit replay session.json -- node server.js
  npx mcpkit replay session.json http://127.0.0.1:3000/mcp --ignore structuredContent.at --json
  npx mcpkit replay host-session.json --config mcp.json`,
  gateway: `Usage: mcpkit gateway --config FILE (--stdio | --http [--port N] [--host H]) [--era ERA] [--metrics-port N] [--log-json]
       [--upstreams shared|per-session] [--lanes N] [--session-idle DURATION] [--sessions-per-client N]
       [--start-budget DURATION] [--max-total-timeout DURATION] [--apps]

Serves every server of FILE (mcpServers or VS Code's servers format) as one MCP server: names
that collide are namespaced (server__name), calls are routed to the server that owns them, and
what a server asks during a call (sampling, elicitation), its progress and its log messages go
back to the client that made the call. --http serves Streamable HTTP at /mcp (default
127.0.0.1:3000; --port 0 picks a free port and the URL is printed on stdout). The clients share
one process (connection) per server (--upstreams shared, the default); a call of a client that
can be asked something (sampling, elicitation) holds one of at most --lanes N (default 4) more
connections to its server alone, so what the server asks reaches that client. --upstreams
per-session gives each client its own servers instead. An HTTP session idle and never ended
lasts --session-idle (default 5m); one client (token, else address) holds at most
--sessions-per-client N (default 32), its oldest idle one replaced. A listing waits at most
--start-budget (default 3s; a config entry's startBudget overrides it) for servers still
starting; a late one is announced with list_changed. --max-total-timeout (default 10m) ends an
upstream call that runs that long, however much progress it reports. An HTTP server that asks
for OAuth gets the tokens a login cached, refreshed with its entry's "oauth" client (log in first:
mcpkit login --config FILE --server NAME); the gateway opens no browser. --apps declares MCP Apps to the servers, so
their tools' _meta.ui and ui:// views pass through. Each server's state changes are logged on
stderr (ready and how long it took, failed and why, restarting after a crash). Clients on 2025-11-25 and on 2026-07-28 are both served;
--era (2025 default, auto, 2026) is the revision spoken to the HTTP servers of FILE. --metrics-port N
also serves Prometheus metrics at http://127.0.0.1:N/metrics (0: any free port); --log-json logs
sessions, handshakes, failures and slow calls as JSON lines on stderr. See docs/host.md and
docs/observability.md.`,
  info: `Usage: mcpkit info TARGET

Shows the server's name, version and instructions, the protocol revision and its era (2026:
per-request metadata, no session; 2025: an initialize session), and its capabilities. With
--json: the server's initialize result, exactly (under 2026-07-28: its server/discover answer in
that shape).`,
  list: `Usage: mcpkit list TARGET [tools|resources|templates|prompts]

Lists tools, resources, resource templates and prompts (all of them when no kind is given),
following pagination. With --json: {"tools": […], "resources": […], "resourceTemplates": […],
"prompts": […]} (only the kind asked for, when one is given).

With --config FILE and no --server, when FILE lists several servers: the namespaced catalogue of
all of them (server__name where names collide), then each server's state ("servers" in --json).
Every other verb works across them too: mcpkit call --config FILE everything__echo message=hi`,
  call: `Usage: mcpkit call TARGET TOOL [key=value…] [--args JSON] [--task]

Calls a tool. Each key=value is typed by the tool's inputSchema: numbers, booleans, null, JSON
objects, and lists (JSON, or comma-separated; a repeated key adds to a list). --args gives the
arguments as a JSON object; key=value pairs override it. Arguments are checked against the schema
before anything is sent.

--task runs the tool as a task (polling tasks/get, then tasks/result); tools whose taskSupport is
"required" always run as tasks. Ctrl-C cancels the call (or the task).

-o, --out DIR saves the result's images, audio and binary resources as files in DIR (created if
needed; TOOL-N.EXT, never overwriting a file) and prints their paths instead of a placeholder.

Exits 4 when the tool returns isError. With --json: the CallToolResult, exactly.`,
  read: `Usage: mcpkit read TARGET URI

Reads a resource. Text is printed as is. A single binary resource is written as raw bytes when
stdout is not a terminal:  mcpkit read URL demo://logo.png > logo.png
With --json: the ReadResourceResult, exactly.`,
  get: `Usage: mcpkit get TARGET PROMPT [key=value…] [--args JSON]

Gets a prompt with its arguments filled in. With --json: the GetPromptResult, exactly.`,
  complete: `Usage: mcpkit complete TARGET PROMPT|TEMPLATE-URI NAME=PARTIAL [name=value…]

Asks the server to complete one argument. The reference is a resource template URI when it
contains "://" or "{", otherwise a prompt name. The first NAME=PARTIAL is the argument to
complete; further pairs are arguments already chosen (context). Examples:
  mcpkit complete URL translate language=Fr
  mcpkit complete URL 'demo://items/{category}/{id}' id=b category=fruit`,
  ping: `Usage: mcpkit ping TARGET

Pings the server and prints the round-trip time. With --json: {"latencyMs": N}.`,
  watch: `Usage: mcpkit watch TARGET [URI…]   (also: mcpkit subscribe TARGET URI…)

Subscribes to each resource URI given and prints every update as it comes, with the time, and
every change of the tools, resources and prompts lists the server announces, as the names added
(+name) and removed (-name). Runs until Ctrl-C or --timeout, both of which end it with exit 0; a
lost connection exits 3. With --json: one JSON object per line,
{"time", "event": "resources/updated", "uri"} or {"time", "event": "tools/list_changed", "added",
"removed", "count"}. Example:
  mcpkit watch http://127.0.0.1:3000/mcp demo://clock`,
  login: `Usage: mcpkit login URL [--client-id ID [--client-secret SECRET]] [--scope SCOPE]

Logs in to an HTTP server that asks for OAuth, afresh even when tokens are cached: discovers its
authorization server, registers mcpkit there (unless --client-id is given), opens your browser
(or prints the URL) and waits for the redirect on http://127.0.0.1:PORT/callback. The tokens are
cached for later commands, which then need no login; a client id given here is remembered.

${AUTHORIZATION}`,
  logout: `Usage: mcpkit logout URL

Deletes the cached tokens of that server, and the client id remembered for it.`,
  serve: `Usage: mcpkit serve [--http [--port N] [--host H] [--stateless] [--json-response]
                    [--auth-issuer URL [--auth-audience URL] [--auth-scope S]] [--redis URL] | --stdio] [--folder DIR]… [--metrics-port N] [--log-json] [--rate-limit R]

Runs the demo server, which exercises every MCP 2025-11-25 feature with small examples.
  --http            Streamable HTTP on http://HOST:PORT/mcp (the default)
  -p, --port N      port (default 3000; 0 picks a free one)
  --host H          address to bind (default 127.0.0.1)
  --stateless       no sessions: every request stands alone
  --json-response   answer with JSON bodies instead of SSE streams
  --auth-issuer URL serve as an OAuth protected resource of that authorization server: requests
                    need its JWT access token (401 with WWW-Authenticate otherwise), and the
                    Protected Resource Metadata is served at /.well-known/oauth-protected-resource
  --auth-audience URL
                    the audience tokens must name (default: the server's own /mcp URL)
  --auth-scope S    the scopes its metadata publishes as scopes_supported, which clients ask
                    for when logging in (space-separated; default mcp:read)
  --redis URL       run as one node of a cluster (e.g. redis://127.0.0.1:6379): sessions,
                    resumable streams and tasks live in Redis, so any node behind a load
                    balancer serves any session
  --stdio           serve one client over stdin/stdout (for Claude Desktop, VS Code, Cursor)
  --folder DIR      also serve the files of DIR, read-only, as file:// resources (repeatable)

  --metrics-port N  also serve Prometheus metrics at http://127.0.0.1:N/metrics (0: any free port)
  --log-json        log sessions, handshakes, failures and slow calls as JSON lines on stderr
  --rate-limit R    limit each client (its principal when authorized, else its session) to R:
                    20/s (bursts of twice the rate), 20/s,burst=40, or 30/m; a refused request
                    gets error -32029 with data.retryAfterMs, a refused HTTP POST 429;
                    with --redis the limit holds across every node of the cluster`,
  dev: `Usage: mcpkit dev FILE [--http [--port N] [--host H] | --stdio] [--watch PATH]… [-- SERVER-ARGS…]

Runs the stdio MCP server FILE (.js, .mjs, .cjs, .ts, .mts, .cts) and restarts it whenever its
code changes, while your client stays connected. The client does not talk to FILE's process, which
comes and goes; it connects to a front that mcpkit owns and keeps up, and the front passes every
request to the server of the moment. After a restart the front tells every connected client
notifications/tools/list_changed (and resources, prompts), so the console, mcpkit watch, the
Inspector or Claude Desktop list again in the session they already have: no reconnecting.

  --http            the front is Streamable HTTP at http://HOST:PORT/mcp (the default; the URL
                    is printed on stdout)
  -p, --port N      port (default 3000; 0 picks a free one)
  --host H          address to bind (default 127.0.0.1)
  --stdio           the front is stdin/stdout: for a client that starts the command itself
                    (Claude Desktop: "command": "npx", "args": ["mcpkit", "dev", "/abs/server.ts", "--stdio"])
  --watch PATH      restart on changes under PATH (repeatable; FILE is always watched). Default:
                    FILE's directory. In a directory only code counts (.js .mjs .cjs .jsx .ts
                    .mts .cts .tsx), so a log or data file the server writes cannot restart it in
                    a loop; a file named here always counts. node_modules, .git and editors'
                    scratch files are skipped.
  -- SERVER-ARGS    arguments for FILE itself

A burst of saves is one restart (150 ms of quiet), reported on stderr as
"restarted after a change in src/tools.ts (132 ms)"; the server's own stderr is passed through.
A restart on purpose is not a crash: no backoff, no circuit. A server that does not start (a
syntax error, say) is reported, and mcpkit waits for the next save; meanwhile the front lists
no tools, resources or prompts, and the good save announces them again. A server that exits by itself is said to have, and is started again once.

TypeScript: Node 20 cannot run it by itself, so mcpkit runs it with tsx (node --import tsx),
found in your project first, else beside mcpkit; without tsx, Node 22.18 and later strip the types
themselves, and older Nodes stop with "install tsx: npm install -D tsx". The server inherits this
shell's environment and working directory, as when you run it by hand.

Examples:
  npx mcpkit dev server.ts                        # front on http://127.0.0.1:3000/mcp
  npx mcpkit watch http://127.0.0.1:3000/mcp      # in another terminal: see each change land
  npx mcpkit dev src/server.ts --watch src --port 0 -- --verbose`,
};

/**
 * The help text: the overview, or one verb's page.
 *
 * @example
 * ```ts
 * process.stdout.write(helpText('call', style));
 * ```
 */
export function helpText(verb: Verb | undefined, style: Style): string {
  if (verb === undefined) return OVERVIEW;
  const body = VERB_HELP[verb];
  const shared =
    verb === 'serve' || verb === 'logout' || verb === 'dev'
      ? ''
      : `\n\n${TARGETS}\n\n${CLIENT_OPTIONS}\n\n${EXIT_CODES}`;
  return `${style.bold(body.split('\n', 1)[0]!)}${body.slice(body.indexOf('\n'))}${shared}\n`;
}
