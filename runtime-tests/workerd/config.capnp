# workerd configuration of the runtime tests, with the compatibility settings a Workers project
# has in its wrangler.toml: a compatibility date and nodejs_compat (the default from 2026-08-04 on;
# with a later date workerd warns that the flag is redundant). The sockets have no
# address here: the test driver gives each one with `--socket-addr NAME=127.0.0.1:PORT`.
#   workerd serve config.capnp server   (the MCP server, stateless as Workers must run it: sockets
#                                        stateless and stateless-json)
# The server Worker also has enable_request_signal, the flag a user sets to learn that a client left.
#   workerd serve config.capnp client   (the MCP client: socket client, may reach loopback servers)
using Workerd = import "/workerd/workerd.capnp";

const server :Workerd.Config = (
  services = [(name = "mcp", worker = .serverWorker)],
  sockets = [
    (name = "stateless", http = (), service = "mcp"),
    (name = "stateless-json", http = (), service = (name = "mcp", entrypoint = "json")),
  ],
);

const client :Workerd.Config = (
  services = [
    (name = "client", worker = .clientWorker),
    # The default outbound network refuses private and local addresses; the Node server is on 127.0.0.1.
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "client", http = (), service = "client")],
);

const serverWorker :Workerd.Worker = (
  modules = [(name = "server.js", esModule = embed "dist/server.js")],
  compatibilityDate = "2026-07-01",
  compatibilityFlags = ["nodejs_compat", "enable_request_signal"],
);

const clientWorker :Workerd.Worker = (
  modules = [(name = "client.js", esModule = embed "dist/client.js")],
  compatibilityDate = "2026-07-01",
  compatibilityFlags = ["nodejs_compat"],
  globalOutbound = "loopback",
);
