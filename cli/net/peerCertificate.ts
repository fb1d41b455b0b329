/**
 * What certificate a TLS server presents, read after verification refused it, so the message can say what it is
 * (for which names, by whom, valid until when) rather than only that it was refused. A separate connection that
 * completes the handshake without verifying and then closes: nothing is ever written on it, so no credential reaches
 * a server that failed verification.
 */
import type * as tls from "tls";

/** The facts of a certificate a message names. */
export interface PeerCertificateFacts {
    readonly subject: string;
    readonly issuer: string;
    readonly validFrom: Date;
    readonly validTo: Date;
    /** `DNS:a, IP Address:1.2.3.4`, as Node writes subjectAltName. */
    readonly altNames?: string;
}

/**
 * The certificate the server at `url` presents, or undefined when it cannot be read within `deadlineMs`.
 *
 * @param servername - the name sent in SNI (a kubeconfig's tls-server-name), default the URL's host name.
 */
export function peerCertificate(url: URL, servername: string | undefined, deadlineMs: number): Promise<PeerCertificateFacts | undefined> {
    return new Promise((resolve) => {
        if (deadlineMs <= 0) return resolve(undefined);
        const host = url.hostname.replace(/^\[|\]$/g, "");
        const name = servername ?? host;
        // Loaded here: `mara --help` loads modules that import this one, and must not load Node's TLS stack.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const socket = (require("tls") as typeof tls).connect({ host, port: Number(url.port || 443), servername: /^[\d.]+$|:/.test(name) ? undefined : name, rejectUnauthorized: false });
        const done = (facts: PeerCertificateFacts | undefined) => {
            clearTimeout(timer);
            socket.destroy();
            resolve(facts);
        };
        const timer = setTimeout(() => done(undefined), deadlineMs);
        socket.once("secureConnect", () => {
            const c = socket.getPeerCertificate();
            if (!c || !c.valid_to) return done(undefined);
            // Node gives a repeated attribute (two OUs) as a list.
            const dn = (x: Record<string, string | string[] | undefined> | undefined) => (x?.CN ? `CN=${String(x.CN)}` : Object.entries(x ?? {}).map(([k, v]) => `${k}=${String(v)}`).join(", "));
            done({ subject: dn(c.subject as never), issuer: dn(c.issuer as never), validFrom: new Date(c.valid_from), validTo: new Date(c.valid_to), ...(c.subjectaltname ? { altNames: c.subjectaltname } : {}) });
        });
        socket.once("error", () => done(undefined));
    });
}
