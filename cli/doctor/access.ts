/**
 * Can the program talk to the cluster at all, for long enough, and will it accept the charts: the server answers,
 * the credentials are accepted and do not run out during a deploy, and the server's version is one the pinned
 * charts install on and upstream still supports.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import { coerce, satisfies } from "semver";
import { NEWEST_KUBERNETES_MINOR, upstreamVerdict } from "../../config/kubernetesReleases";
import { CHART_KUBE_VERSIONS } from "./chartKubeVersions";
import type { Finding } from "./findings";
import { isKubeApiError, KubeClient } from "./kubeClient";

/** Credentials closer to their end than this get a warning: a first `pulumi up` on a small cluster takes up to an hour. */
export const EXPIRY_WARNING_HOURS = 2;

/** The server's answer to GET /version. */
export interface ServerVersion {
    readonly gitVersion: string;
    readonly major: string;
    readonly minor: string;
}

/** What the access checks found; `reachable` false means nothing else can be checked. */
export interface AccessResult {
    readonly findings: Finding[];
    readonly reachable: boolean;
    readonly version?: ServerVersion;
    /** The user the API server sees (from a SelfSubjectReview), when it said. */
    readonly username?: string;
}

const f = (id: string, title: string, verdict: Finding["verdict"], detail: string, fix?: string): Finding => ({ id, group: "access", title, verdict, detail, ...(fix ? { fix } : {}) });

/** When the kubeconfig's credentials stop working, if they say: a JWT's `exp`, or a client certificate's end. */
export function credentialExpiry(user: KubeClient["user"], readFile: (p: string) => string = (p) => fs.readFileSync(p, "utf8")): { kind: string; expires?: Date } {
    if (!user) return { kind: "none" };
    const token = user.token ?? (user as { authProvider?: { config?: Record<string, string> } }).authProvider?.config?.["id-token"];
    if (token) return { kind: "bearer token", expires: jwtExpiry(token) };
    const certData = user.certData ?? (user.certFile ? safe(() => Buffer.from(readFile(user.certFile!)).toString("base64")) : undefined);
    if (certData) {
        const pem = Buffer.from(certData, "base64").toString("utf8");
        const cert = safe(() => new crypto.X509Certificate(pem.includes("BEGIN") ? pem : Buffer.from(certData, "base64")));
        return { kind: "client certificate", expires: cert ? new Date(cert.validTo) : undefined };
    }
    if (user.exec) return { kind: `exec plugin (${(user.exec as { command?: string }).command ?? "a command"})` };
    return { kind: "none" };
}

function safe<T>(fn: () => T): T | undefined {
    try {
        return fn();
    } catch {
        return undefined;
    }
}

/** The `exp` claim of a JWT (ServiceAccount and OIDC tokens), or undefined for a token that is not one. */
export function jwtExpiry(token: string): Date | undefined {
    const parts = token.split(".");
    if (parts.length !== 3) return undefined;
    const claims = safe(() => JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as { exp?: unknown });
    return typeof claims?.exp === "number" ? new Date(claims.exp * 1000) : undefined;
}

function hoursUntil(when: Date, now: Date): number {
    return (when.getTime() - now.getTime()) / 3_600_000;
}

/**
 * Reachability, credentials, their expiry, and the server version against the charts and upstream support.
 *
 * @param now - the clock credentials expire by.
 * @param today - the day the support calendar is read for (`MARA_TODAY` can move it, as for `mara validate`).
 */
export async function checkAccess(client: KubeClient, now: Date, today: Date = now): Promise<AccessResult> {
    const findings: Finding[] = [];
    const ctx = `context "${client.context}"`;
    const expiry = credentialExpiry(client.user);
    let version: ServerVersion;
    try {
        version = await client.get<ServerVersion>("/version");
    } catch (e) {
        if (!isKubeApiError(e)) throw e;
        if (e.status === 401) {
            findings.push(f("reachable", "API server reachable", "pass", `${client.server} answers`));
            findings.push(rejected(client, expiry, now));
            return { findings, reachable: false };
        }
        if (e.kind === "credentials") {
            // Nothing was sent: there was nothing to send it with.
            findings.push(f("reachable", "API server reachable", "skip", "not checked: there are no credentials to connect with (below)"));
            findings.push(f("credentials", "Credentials accepted", "fail", e.message, e.fix));
            return { findings, reachable: false };
        }
        findings.push(f("reachable", "API server reachable", "fail", `${e.message} (${ctx})`, e.fix ?? reachFix(client)));
        return { findings, reachable: false };
    }
    if (typeof version?.gitVersion !== "string") {
        findings.push(f("reachable", "API server reachable", "fail", `GET /version: the answer of ${client.server} has no gitVersion, so it is not the API server's (${ctx})`, reachFix(client)));
        return { findings, reachable: false };
    }
    findings.push(f("reachable", "API server reachable", "pass", `${client.server} (${ctx}) answers`));

    let username: string | undefined;
    try {
        const review = await client.post<{ status?: { userInfo?: { username?: string } } }>("/apis/authentication.k8s.io/v1/selfsubjectreviews", {
            apiVersion: "authentication.k8s.io/v1",
            kind: "SelfSubjectReview",
        });
        username = review?.status?.userInfo?.username;
    } catch (e) {
        if (isKubeApiError(e) && e.status === 401) {
            findings.push(rejected(client, expiry, now));
            return { findings, reachable: false, version };
        }
        // An older server or a policy that hides it: who we are is only a detail.
    }
    findings.push(expiryFinding(expiry, now, username));
    findings.push(versionFinding(version, today));
    return { findings, reachable: true, version, username };
}

function reachFix(client: KubeClient): string {
    return `check that the cluster runs and that ${client.server} is reachable from here (VPN, firewall, the address in the kubeconfig): kubectl --context ${client.context} get --raw /version`;
}

function rejected(client: KubeClient, expiry: ReturnType<typeof credentialExpiry>, now: Date): Finding {
    const expired = expiry.expires && expiry.expires.getTime() <= now.getTime() ? `; its ${expiry.kind} expired at ${expiry.expires.toISOString()}` : "";
    return f(
        "credentials",
        "Credentials accepted",
        "fail",
        `the API server refused the credentials of context "${client.context}" (401 Unauthorized)${expired}`,
        `get a fresh kubeconfig for the cluster (for k3s: /etc/rancher/k3s/k3s.yaml; kind: kind get kubeconfig --name <cluster>; a ServiceAccount: kubectl create token <name> --duration 24h) and point mara:kubeconfig at it`,
    );
}

function expiryFinding(expiry: ReturnType<typeof credentialExpiry>, now: Date, username?: string): Finding {
    const who = username ? ` as ${username}` : "";
    const title = "Credentials accepted and not about to expire";
    if (!expiry.expires) return f("credentials", title, "pass", `accepted${who} (${expiry.kind === "none" ? "no expiry in the kubeconfig" : `${expiry.kind}${expiry.kind.startsWith("exec") ? ", renewed on each run" : ", no expiry recorded"}`})`);
    const hours = hoursUntil(expiry.expires, now);
    const fix =
        "renew them before deploying: `pulumi up` stores the kubeconfig in the state and `pulumi destroy` uses that copy, so a credential that expires leaves a stack that can be neither updated nor destroyed until the next `pulumi up` with a fresh one";
    if (hours <= 0) return f("credentials", title, "fail", `accepted${who}, but the ${expiry.kind} expired at ${expiry.expires.toISOString()}`, fix);
    if (hours < EXPIRY_WARNING_HOURS) return f("credentials", title, "warn", `accepted${who}; the ${expiry.kind} expires in ${Math.max(1, Math.round(hours * 60))} minutes (${expiry.expires.toISOString()})`, fix);
    return f("credentials", title, "pass", `accepted${who}; the ${expiry.kind} is valid until ${expiry.expires.toISOString()}`);
}

/** The server version against every pinned chart's `kubeVersion` and the upstream support calendar. */
export function versionFinding(version: ServerVersion, now: Date): Finding {
    const title = "Kubernetes version in support and accepted by the charts";
    const parsed = coerce(version.gitVersion, { includePrerelease: false });
    if (!parsed) return f("version", title, "warn", `the server reports version "${version.gitVersion}", which is not a version number`, "check the cluster's version with: kubectl version");
    const refused = Object.entries(CHART_KUBE_VERSIONS).filter(([, range]) => !satisfies(`${parsed.major}.${parsed.minor}.${parsed.patch}`, range, { includePrerelease: true }));
    if (refused.length > 0) {
        return f(
            "version",
            title,
            "fail",
            `Kubernetes ${version.gitVersion}: ${refused.map(([chart, range]) => `${chart} needs ${range.replace(/-0$/, "")}`).join("; ")}`,
            "upgrade the cluster (every chart the platform pins installs on 1.25 and later)",
        );
    }
    const minor = `${parsed.major}.${parsed.minor}`;
    const upstream = upstreamVerdict(minor, now);
    if (upstream.kind === "endOfLife") {
        return f("version", title, "warn", `Kubernetes ${version.gitVersion}: the charts install, but upstream support for ${minor} ended ${upstream.on}`, "upgrade the cluster to a supported minor release (kubernetes.io/releases)");
    }
    if (upstream.kind === "unreleased") {
        return f("version", title, "warn", `Kubernetes ${version.gitVersion} is newer than the newest release this version of the platform knows (${NEWEST_KUBERNETES_MINOR})`, "check docs/upgrading.md for a newer version of the platform");
    }
    return f("version", title, "pass", `Kubernetes ${version.gitVersion}`);
}
