/**
 * A local listener on the loopback address whose every connection is carried to a pod's port: through the API
 * server's port-forward endpoint with the kubeconfig's credentials in the command, through whatever `forward` says
 * in tests.
 */
import * as net from "net";
import type { KubeConfig } from "@kubernetes/client-node";
import type { KubeContextClient } from "../doctor/kubeClient";
import type { ForwardTarget } from "./resolve";

/** Carries one local connection to the target; resolves once it is set up. */
export type Forwarder = (target: ForwardTarget, socket: net.Socket) => Promise<void>;

/** How long the API server may take to open one port-forward (the WebSocket's whole opening handshake). */
export const PORT_FORWARD_OPEN_MS = 8000;

/**
 * The API server's port-forward (`pods/portforward`, over WebSocket), as kubectl uses it, through
 * `@kubernetes/client-node`'s PortForward. The library would authenticate on its own from a KubeConfig, running an
 * exec plugin without a deadline for every connection; it is handed instead a configuration that applies the
 * client's own resolved TLS settings and credentials (cli/kube/credentials.ts), with a connection this module keeps
 * hold of, so that an API server that never completes the opening handshake is cut off after
 * {@link PORT_FORWARD_OPEN_MS} (the WebSocket library's own handshake timeout counts only silence).
 *
 * @param client - gives the connection settings; asked again for each connection, so an exec plugin's credential
 *   that has run out is renewed.
 */
export function apiServerForwarder(client: () => KubeContextClient, openMs = PORT_FORWARD_OPEN_MS): Forwarder {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const k8s = require("@kubernetes/client-node") as typeof import("@kubernetes/client-node");
    return async (t, socket) => {
        const c = client();
        const conn = await c.connection();
        const opened: net.Socket[] = [];
        const secure = c.server.startsWith("https:");
        const config = {
            getCurrentCluster: () => ({ server: c.server }),
            applyToHTTPSOptions: async (opts: Record<string, unknown>) => {
                Object.assign(opts, {
                    ...conn.tls,
                    ...(conn.credentials.cert ? { cert: conn.credentials.cert, key: conn.credentials.key } : {}),
                    headers: { ...conn.credentials.headers },
                    handshakeTimeout: openMs,
                    ...(conn.agent
                        ? { agent: conn.agent }
                        : {
                              // The WebSocket library opens its connection through this: kept, so the deadline can end it.
                              createConnection: (o: Record<string, unknown>) => {
                                  // eslint-disable-next-line @typescript-eslint/no-require-imports
                                  const tls = require("tls") as typeof import("tls");
                                  const servername = typeof o.servername === "string" ? o.servername : net.isIP(String(o.host)) ? undefined : String(o.host);
                                  const s = secure ? tls.connect({ ...(o as object), path: undefined, servername } as import("tls").ConnectionOptions) : net.connect(o as unknown as net.NetConnectOpts);
                                  opened.push(s);
                                  return s;
                              },
                          }),
                });
            },
        };
        const pf = new k8s.PortForward(config as unknown as KubeConfig, true);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
                for (const s of opened) s.destroy();
                reject(new Error(`the API server did not open the port-forward within ${openMs / 1000} s`));
            }, openMs);
        });
        try {
            await Promise.race([pf.portForward(t.namespace, t.pod, [t.containerPort], socket, null, socket), late]);
        } catch (e) {
            for (const s of opened) s.destroy();
            throw portForwardError(e);
        } finally {
            clearTimeout(timer);
        }
    };
}

/**
 * What the WebSocket library raised, in words: an Error, or the ErrorEvent its onerror hands over (not an Error, its
 * message and error as fields); "Unexpected server response: 403" carries the status.
 */
function portForwardError(e: unknown): Error {
    const event = e as { message?: unknown; error?: { message?: unknown; code?: unknown } };
    const message = typeof event?.message === "string" ? event.message : typeof event?.error?.message === "string" ? event.error.message : "";
    const status = /Unexpected server response: (\d{3})/.exec(message)?.[1];
    if (status) return new Error(`the API server refused the port-forward (HTTP ${status}${status === "403" ? ": the kubeconfig's user may not create pods/portforward there" : ""})`);
    if (/did not open the port-forward/.test(message)) return e as Error;
    const code = (e as { code?: unknown })?.code ?? event?.error?.code;
    return new Error(`the port-forward could not be opened${typeof code === "string" ? ` (${code})` : ""}`);
}

/** A running listener. */
export interface Listener {
    readonly port: number;
    close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1:`port` (0: a free port) and forwards each connection; a connection that cannot be forwarded
 * is closed and reported through `onError`.
 */
export function listen(target: ForwardTarget, forward: Forwarder, port: number, onError: (e: Error) => void): Promise<Listener> {
    const server = net.createServer((socket) => {
        forward(target, socket).catch((e: Error) => {
            onError(e);
            socket.destroy();
        });
    });
    return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => {
            server.off("error", reject);
            resolve({ port: (server.address() as net.AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) });
        });
    });
}
