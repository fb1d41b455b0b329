/**
 * What a request to the cluster carries: the TLS settings of the cluster entry (its certificate authority, checked
 * before any connection; its TLS server name) and the user's credentials, resolved once per command — a token, a
 * token file, basic credentials, a client certificate and key, an exec plugin's answer (execPlugin.ts), an OIDC
 * auth provider's id-token. Every failure is a {@link CredentialError} or a {@link TlsConfigError} with what to do.
 *
 * `@kubernetes/client-node` does this too (KubeConfig.applyToHTTPSOptions), and its transport was used before; it is
 * not, now, because its exec plugin runner has no deadline or output cap, its GCP and Azure auth providers run a
 * command synchronously, it reads a token file with no size or type check (a pipe blocks it for ever), and it hands
 * garbage certificate-authority data to Node unchecked. Reading the same kubeconfig fields here keeps every read and
 * every child process bounded.
 */
import { redactKnown } from "../net/excerpt";
import { certificateAuthority, clientKeyPair, readCredentialFile } from "../net/tlsMaterial";
import { ExecPluginError, runExecPlugin } from "./execPlugin";
import type { KubeCluster, KubeContext } from "./kubeconfig";

/** The credentials could not be had: what happened, and what to do. */
export class CredentialError extends Error {
    constructor(
        message: string,
        readonly fix: string,
    ) {
        super(message);
        this.name = "CredentialError";
    }
}

/** The cluster entry's TLS settings are unusable. */
export class TlsConfigError extends Error {
    constructor(
        message: string,
        readonly fix: string,
    ) {
        super(message);
        this.name = "TlsConfigError";
    }
}

/** TLS settings for requests to the cluster. */
export interface ClusterTls {
    readonly ca?: Buffer;
    readonly rejectUnauthorized: boolean;
    readonly servername?: string;
}

/** What every request carries. */
export interface ResolvedCredentials {
    readonly headers: Readonly<Record<string, string>>;
    readonly cert?: Buffer;
    readonly key?: Buffer;
    /** The credential values, so no message ever quotes one (a server may echo the token it was sent). */
    readonly secrets: readonly string[];
    /** When an exec plugin's credential runs out, if it said. */
    readonly expires?: Date;
}

/** The cluster entry's TLS settings, checked. */
export function clusterTls(cluster: KubeCluster): ClusterTls {
    const ca = certificateAuthority(cluster.caData, cluster.caFile);
    const where = `cluster "${cluster.name}"`;
    if (ca && !ca.ok) {
        throw new TlsConfigError(
            `${where}: ${ca.problem}`,
            "put the cluster's CA certificate there again, as the cluster's tooling writes it (kubectl config view --raw shows what is there; for k3s: /etc/rancher/k3s/k3s.yaml; kind: kind get kubeconfig; a cloud: its CLI's update-kubeconfig)",
        );
    }
    if (ca && cluster.skipTLSVerify) {
        // client-go refuses the same (rest.Config: "specifying a root certificates file with the insecure flag is not allowed").
        throw new TlsConfigError(`${where}: sets both a certificate authority and insecure-skip-tls-verify, which kubectl refuses`, "remove insecure-skip-tls-verify (the certificate authority is what makes the connection safe)");
    }
    return { ...(ca ? { ca: ca.value.pem } : {}), rejectUnauthorized: !cluster.skipTLSVerify, ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}) };
}

/** The `exp` claim of a JWT, or undefined for a token that is not one. */
function jwtExp(token: string): Date | undefined {
    const parts = token.split(".");
    if (parts.length !== 3) return undefined;
    try {
        const exp = (JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as { exp?: unknown }).exp;
        return typeof exp === "number" ? new Date(exp * 1000) : undefined;
    } catch {
        return undefined;
    }
}

/**
 * Resolves the context's user into what requests carry. Runs the exec plugin, when there is one, within `deadlineMs`.
 *
 * @throws CredentialError naming the user entry's field and what is wrong.
 */
export async function resolveCredentials(ctx: KubeContext, opts: { readonly deadlineMs: number; readonly env: Readonly<Record<string, string | undefined>>; readonly now?: Date }): Promise<ResolvedCredentials> {
    const user = ctx.user;
    if (!user) return { headers: {}, secrets: [] };
    const who = `user "${user.name}"`;
    const headers: Record<string, string> = {};
    const secrets: string[] = [];
    const fixEntry = `correct the kubeconfig's ${who} entry, or get a fresh kubeconfig from the cluster's tooling`;
    let expires: Date | undefined;
    let token = user.token;
    if (!token && user.tokenFile) {
        const read = readCredentialFile(user.tokenFile, `${who}: tokenFile`);
        if (!read.ok) throw new CredentialError(read.problem, fixEntry);
        token = read.value.toString("utf8").trim();
        if (!token) throw new CredentialError(`${who}: tokenFile names ${user.tokenFile}, which is empty`, fixEntry);
    }
    let pair = clientKeyPair({ data: user.certData, file: user.certFile }, { data: user.keyData, file: user.keyFile });
    if (pair && !pair.ok) throw new CredentialError(`${who}: ${pair.problem}`, fixEntry);
    if (!token && user.exec) {
        let cred;
        try {
            cred = await runExecPlugin(user.exec, ctx.cluster, { deadlineMs: opts.deadlineMs, env: opts.env, cwd: ctx.baseDir, now: opts.now });
        } catch (e) {
            if (e instanceof ExecPluginError) throw new CredentialError(`${who}: ${e.message}`, e.fix);
            throw e;
        }
        token = cred.token;
        expires = cred.expires;
        if (cred.clientCertificateData) {
            pair = clientKeyPair({ pem: cred.clientCertificateData }, { pem: cred.clientKeyData }, { cert: "the plugin's clientCertificateData", key: "its clientKeyData" });
            if (pair && !pair.ok) throw new CredentialError(`${who}: the exec credential plugin's answer: ${pair.problem}`, "check the plugin's version and arguments");
            secrets.push(cred.clientKeyData!);
        }
    }
    if (!token && !user.exec && user.authProvider) token = authProviderToken(user.authProvider, who, opts.now ?? new Date());
    if (token) {
        headers.authorization = `Bearer ${token}`;
        secrets.push(token);
    } else if (user.username !== undefined || user.password !== undefined) {
        headers.authorization = `Basic ${Buffer.from(`${user.username ?? ""}:${user.password ?? ""}`).toString("base64")}`;
        if (user.password) secrets.push(user.password);
        secrets.push(headers.authorization.slice(6));
    }
    if (user.impersonate) headers["impersonate-user"] = user.impersonate;
    return { headers, ...(pair?.ok ? { cert: pair.value.cert, key: pair.value.key } : {}), secrets, ...(expires ? { expires } : {}) };
}

/** The bearer token of a legacy auth provider: OIDC's id-token; the removed GCP and Azure providers are refused with their replacement. */
function authProviderToken(provider: { name: string; config?: Readonly<Record<string, string>> }, who: string, now: Date): string {
    if (provider.name === "oidc") {
        const token = provider.config?.["id-token"];
        if (!token) throw new CredentialError(`${who}: the oidc auth provider has no id-token yet`, "log in with your OIDC tool once (kubectl oidc-login, or the cluster's login command), or use the kubelogin exec plugin");
        const exp = jwtExp(token);
        if (exp && exp.getTime() <= now.getTime()) {
            throw new CredentialError(
                `${who}: the oidc auth provider's id-token expired at ${exp.toISOString()}; mara does not refresh it`,
                "refresh it with kubectl (kubectl get namespaces renews it through the refresh-token), or switch to the kubelogin exec plugin",
            );
        }
        return token;
    }
    if (provider.name === "gcp" || provider.name === "azure") {
        throw new CredentialError(
            `${who}: the ${provider.name} auth provider was removed from kubectl in Kubernetes 1.26`,
            provider.name === "gcp" ? "install gke-gcloud-auth-plugin and run: gcloud container clusters get-credentials <cluster>" : "install kubelogin and run: kubelogin convert-kubeconfig",
        );
    }
    throw new CredentialError(`${who}: auth provider "${redactKnown(provider.name)}" is not one mara knows (oidc)`, "use an exec credential plugin or a token instead");
}
