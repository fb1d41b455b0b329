/**
 * A local listener on the loopback address whose every connection is carried to a pod's port: through the API
 * server's port-forward endpoint with the kubeconfig's credentials in the command, through whatever `forward` says
 * in tests.
 */
import * as net from "net";
import type { KubeConfig } from "@kubernetes/client-node";
import type { ForwardTarget } from "./resolve";

/** Carries one local connection to the target; resolves once it is set up. */
export type Forwarder = (target: ForwardTarget, socket: net.Socket) => Promise<void>;

/** The API server's port-forward (`pods/portforward`, over WebSocket), as kubectl uses it. */
export function apiServerForwarder(kc: KubeConfig): Forwarder {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const k8s = require("@kubernetes/client-node") as typeof import("@kubernetes/client-node");
    const pf = new k8s.PortForward(kc, true);
    return async (t, socket) => {
        await pf.portForward(t.namespace, t.pod, [t.containerPort], socket, null, socket);
    };
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
