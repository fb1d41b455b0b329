/**
 * Exec credential plugins (client.authentication.k8s.io): the command a kubeconfig names to print a credential
 * (`aws eks get-token`, `gke-gcloud-auth-plugin`, `kubelogin`), run as client-go runs it (kubernetes/client-go,
 * plugin/pkg/client/auth/exec/exec.go, refreshCredsLocked): the ExecCredential request in KUBERNETES_EXEC_INFO, the
 * entry's env on top of ours, and its answer checked the same way — the apiVersion the kubeconfig asks for, a status,
 * a token or a certificate and key pair, both or neither. Unlike client-go (and `@kubernetes/client-node`, whose
 * ExecAuth waits for ever and keeps all it prints), it runs within a deadline, in a process group of its own that the
 * deadline kills, with its output capped; and a credential that has already expired is refused here rather than
 * sent. Standard input is never given to it: mara's checks run unattended, so a plugin that must ask (interactiveMode
 * Always) is refused with what to do instead. Its arguments are never quoted in a message: some plugins take a key
 * as an argument.
 */
import { ProcessFailure, runBounded } from "../../host/boundedProcess";
import { redactKnown } from "../net/excerpt";
import { secondsInWords } from "../net/boundedRequest";
import type { ExecConfig, KubeCluster } from "./kubeconfig";

/** How long a plugin may run. */
export const EXEC_PLUGIN_TIMEOUT_MS = 30_000;
/** The most a plugin may print: a credential with a certificate chain and key is a few kilobytes. */
export const EXEC_PLUGIN_MAX_BYTES = 1024 * 1024;

/** The API versions of ExecCredential client-go still serves (v1alpha1 was removed in Kubernetes 1.24). */
export const EXEC_API_VERSIONS = ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"] as const;

/** What a plugin printed, checked. */
export interface ExecCredentialResult {
    readonly token?: string;
    readonly clientCertificateData?: string;
    readonly clientKeyData?: string;
    readonly expires?: Date;
}

/** A plugin that gave no usable credential: what happened, and what to do. */
export class ExecPluginError extends Error {
    constructor(
        message: string,
        readonly fix: string,
    ) {
        super(message);
        this.name = "ExecPluginError";
    }
}

/** Options of {@link runExecPlugin}. */
export interface ExecRunOptions {
    /** Milliseconds it may run; the smaller of this and the caller's remaining time. */
    readonly deadlineMs: number;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly cwd?: string;
    readonly now?: Date;
}

/**
 * Runs the plugin and returns its credential.
 *
 * @throws ExecPluginError naming the command and what went wrong: not installed, still running at the deadline, exited
 *   with an error (the end of its standard error shown, redacted), printed too much, something other than an
 *   ExecCredential, or a credential that has expired.
 */
export async function runExecPlugin(exec: ExecConfig, cluster: KubeCluster, opts: ExecRunOptions): Promise<ExecCredentialResult> {
    const name = `the exec credential plugin \`${exec.command}\``;
    const apiVersion = exec.apiVersion ?? "";
    if (!(EXEC_API_VERSIONS as readonly string[]).includes(apiVersion)) {
        throw new ExecPluginError(
            `${name}: the kubeconfig asks for ExecCredential apiVersion "${apiVersion || "(none)"}", which kubectl no longer runs (it runs ${EXEC_API_VERSIONS.join(" and ")})`,
            "set the user's exec.apiVersion to client.authentication.k8s.io/v1 (or regenerate the kubeconfig with the cloud's current CLI)",
        );
    }
    const mode = exec.interactiveMode ?? (apiVersion.endsWith("/v1beta1") ? "IfAvailable" : undefined);
    if (mode === "Always") {
        throw new ExecPluginError(
            `${name} asks for a terminal (interactiveMode: Always), which mara does not give it: its checks run unattended`,
            "log in once with kubectl (kubectl get namespaces), so the plugin has a cached credential, and set interactiveMode: IfAvailable; or use a kubeconfig with a token",
        );
    }
    const request = {
        apiVersion,
        kind: "ExecCredential",
        spec: {
            interactive: false,
            ...(exec.provideClusterInfo
                ? { cluster: { server: cluster.server, ...(cluster.tlsServerName ? { "tls-server-name": cluster.tlsServerName } : {}), ...(cluster.caData ? { "certificate-authority-data": cluster.caData } : {}), "insecure-skip-tls-verify": cluster.skipTLSVerify, ...(cluster.proxyUrl ? { "proxy-url": cluster.proxyUrl } : {}) } }
                : {}),
        },
    };
    const env = { ...opts.env, ...Object.fromEntries(exec.env.map((e) => [e.name, e.value])), KUBERNETES_EXEC_INFO: JSON.stringify(request) };
    let run;
    try {
        run = await runBounded({ file: exec.command, args: exec.args, env, cwd: opts.cwd, deadlineMs: opts.deadlineMs, maxStdoutBytes: EXEC_PLUGIN_MAX_BYTES });
    } catch (e) {
        throw processError(e, exec, name, opts.deadlineMs);
    }
    if (run.code !== 0) {
        const said = stderrTail(run.stderrTail);
        throw new ExecPluginError(
            `${name} failed (${run.code === null ? `ended by ${run.signal}` : `exit code ${run.code}`})${said ? `; it said: ${said}` : " and said nothing on standard error"}`,
            `run it yourself, with the arguments of the kubeconfig's exec entry, to see why (a login that has run out, a profile or region that does not exist, no network to the identity provider): ${exec.command} ...`,
        );
    }
    return checkCredential(run.stdout, apiVersion, name, opts.now ?? new Date());
}

function processError(e: unknown, exec: ExecConfig, name: string, deadlineMs: number): ExecPluginError {
    if (!(e instanceof ProcessFailure)) throw e;
    switch (e.kind) {
        case "not-found":
            return new ExecPluginError(`${name} is not installed (not found${exec.command.includes("/") ? "" : " on PATH"})`, exec.installHint?.trim() || `install it, or correct the user's exec.command in the kubeconfig`);
        case "not-executable":
            return new ExecPluginError(`${name} cannot be run (permission denied)`, `make it executable: chmod +x ${exec.command}`);
        case "timeout": {
            const said = stderrTail(e.stderrTail);
            return new ExecPluginError(
                `${name} did not finish within ${secondsInWords(deadlineMs)} and was stopped${said ? `; it said: ${said}` : ""}`,
                "a plugin that waits for a browser login or a prompt cannot finish here: log in once with kubectl (kubectl get namespaces) so it has a cached credential, then run mara again",
            );
        }
        case "too-much-output":
            return new ExecPluginError(`${name} printed more than ${EXEC_PLUGIN_MAX_BYTES / 1024 / 1024} MiB, which is no credential; it was stopped`, `run it yourself, with the arguments of the kubeconfig's exec entry, to see what it prints: ${exec.command} ...`);
        default:
            return new ExecPluginError(`${name} ${e.message}`, `check the user's exec.command in the kubeconfig`);
    }
}

/** The last lines of what the plugin wrote on standard error: one line, at most 300 characters, with anything like a token hidden. */
function stderrTail(text: string): string {
    const lines = redactKnown(text).split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");
    const joined = lines.slice(-3).join(" | ");
    return joined.length > 300 ? `…${joined.slice(-300)}` : joined;
}

function checkCredential(stdout: string, apiVersion: string, name: string, now: Date): ExecCredentialResult {
    const fix = "the plugin must print one ExecCredential as JSON on standard output (and anything else on standard error); check its version and arguments";
    let doc: unknown;
    try {
        doc = JSON.parse(stdout);
    } catch {
        const start = redactKnown(stdout.trim().slice(0, 60)).replace(/\s+/g, " ");
        throw new ExecPluginError(`${name} printed something that is not JSON${start ? ` (it begins "${start}")` : " (nothing at all)"}, so not an ExecCredential`, fix);
    }
    const cred = doc as { apiVersion?: unknown; kind?: unknown; status?: unknown };
    if (typeof doc !== "object" || doc === null || Array.isArray(doc) || cred.kind !== "ExecCredential") throw new ExecPluginError(`${name} printed JSON that is not an ExecCredential (no "kind": "ExecCredential")`, fix);
    if (cred.apiVersion !== apiVersion) {
        throw new ExecPluginError(`${name} printed an ExecCredential of apiVersion ${JSON.stringify(cred.apiVersion ?? null)}, but the kubeconfig asks for ${apiVersion}`, "set the user's exec.apiVersion to the version the plugin prints, or update the plugin");
    }
    const status = cred.status as Record<string, unknown> | undefined;
    if (typeof status !== "object" || status === null || Array.isArray(status)) throw new ExecPluginError(`${name} printed an ExecCredential without a status`, fix);
    const field = (k: string) => (typeof status[k] === "string" && status[k] !== "" ? (status[k] as string) : undefined);
    const token = field("token");
    const cert = field("clientCertificateData");
    const key = field("clientKeyData");
    if (!token && !cert && !key) throw new ExecPluginError(`${name} printed an ExecCredential with neither a token nor a client certificate and key`, fix);
    if (!cert !== !key) throw new ExecPluginError(`${name} printed only a client ${cert ? "certificate" : "key"}, not both`, fix);
    let expires: Date | undefined;
    if (status.expirationTimestamp !== undefined && status.expirationTimestamp !== null) {
        expires = typeof status.expirationTimestamp === "string" ? new Date(status.expirationTimestamp) : new Date(NaN);
        if (Number.isNaN(expires.getTime())) throw new ExecPluginError(`${name} printed an expirationTimestamp that is not a time (RFC 3339, e.g. 2026-01-02T15:04:05Z)`, fix);
        if (expires.getTime() <= now.getTime()) {
            throw new ExecPluginError(
                `${name} printed a credential that expired at ${expires.toISOString()}`,
                "the plugin handed out a cached credential that has run out: log in again with the cloud's CLI (aws sso login, gcloud auth login, az login), or check this machine's clock",
            );
        }
    }
    return { ...(token ? { token } : {}), ...(cert ? { clientCertificateData: cert, clientKeyData: key } : {}), ...(expires ? { expires } : {}) };
}
