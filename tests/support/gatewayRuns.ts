/**
 * The in-process gateways a host test served over HTTP and the clients it connected to them,
 * closed in one place after the file: clients first, then each gateway's HTTP server and gateway.
 */

interface Closable {
  close(): Promise<unknown>;
}

/** Closes `clients` (failures ignored: some are closed already), then every gateway run. */
export async function closeGatewayRuns(
  clients: readonly Closable[],
  running: readonly { readonly gateway: Closable; readonly served: Closable }[],
): Promise<void> {
  await Promise.allSettled(clients.map((client) => client.close()));
  for (const { gateway, served } of running) {
    await served.close();
    await gateway.close();
  }
}
