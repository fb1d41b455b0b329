/**
 * A kubeconfig read as kubectl reads it, for the commands that talk to a cluster themselves (`doctor`, `open`): the
 * chosen context, its cluster (server, certificate authority, TLS server name, proxy) and its user (token, token file,
 * basic credentials, client certificate, exec credential plugin, auth provider). Relative file names in the user and
 * cluster entries are relative to the kubeconfig's own directory, and an exec plugin's command too when it names a
 * path, as client-go resolves them (kubernetes/client-go, tools/clientcmd/loader.go, ResolveLocalPaths and
 * GetAuthInfoFileReferences). Nothing is read or run here: credentials are resolved when a request needs them
 * (credentials.ts), within that request's deadline.
 */
import * as path from "path";
import { parseDocument } from "yaml";
import { isMap } from "../../contracts/kubeObject";

/** A cluster entry. */
export interface KubeCluster {
    readonly name: string;
    readonly server: string;
    readonly caData?: string;
    readonly caFile?: string;
    readonly skipTLSVerify: boolean;
    readonly tlsServerName?: string;
    readonly proxyUrl?: string;
}

/** An exec credential plugin (client.authentication.k8s.io), as the user entry configures it. */
export interface ExecConfig {
    readonly apiVersion?: string;
    readonly command: string;
    readonly args: readonly string[];
    readonly env: readonly { readonly name: string; readonly value: string }[];
    readonly installHint?: string;
    readonly interactiveMode?: string;
    readonly provideClusterInfo: boolean;
}

/** A user entry: the credentials. Field names follow `@kubernetes/client-node`'s, which the expiry check also reads. */
export interface KubeUser {
    readonly name: string;
    readonly token?: string;
    readonly tokenFile?: string;
    readonly username?: string;
    readonly password?: string;
    readonly certData?: string;
    readonly certFile?: string;
    readonly keyData?: string;
    readonly keyFile?: string;
    readonly exec?: ExecConfig;
    readonly authProvider?: { readonly name: string; readonly config?: Readonly<Record<string, string>> };
    readonly impersonate?: string;
}

/** The context in use, resolved. */
export interface KubeContext {
    readonly name: string;
    readonly cluster: KubeCluster;
    readonly user: KubeUser | null;
    /** Where relative paths and an exec plugin's relative command resolve. */
    readonly baseDir: string;
}

type Doc = Record<string, unknown>;

function named(list: unknown, what: string): { name: string; body: Doc }[] {
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) throw new Error(`the kubeconfig's ${what}s is not a list`);
    return list.flatMap((e) => (isMap(e) && typeof e.name === "string" ? [{ name: e.name, body: isMap(e[what]) ? (e[what] as Doc) : {} }] : []));
}

/** A string field, or undefined; any other type is an error naming the field. */
function str(body: Doc, field: string, owner: string): string | undefined {
    const v = body[field];
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v !== "string") throw new Error(`${owner}: ${field} is not a string`);
    return v;
}

function resolvePath(file: string | undefined, baseDir: string): string | undefined {
    return file === undefined ? undefined : path.isAbsolute(file) ? file : path.join(baseDir, file);
}

function execConfig(body: unknown, owner: string, baseDir: string): ExecConfig | undefined {
    if (body === undefined || body === null) return undefined;
    if (!isMap(body)) throw new Error(`${owner}: exec is not a mapping`);
    const command = str(body, "command", `${owner} exec`);
    if (!command) throw new Error(`${owner}: exec has no command`);
    const args = body.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) throw new Error(`${owner}: exec.args is not a list of strings`);
    const env = body.env ?? [];
    if (!Array.isArray(env) || !env.every((e) => isMap(e) && typeof e.name === "string" && typeof (e.value ?? "") === "string")) {
        throw new Error(`${owner}: exec.env is not a list of name and value`);
    }
    return {
        apiVersion: str(body, "apiVersion", `${owner} exec`),
        // client-go resolves the command against the kubeconfig's directory only when it names a path.
        command: command.includes("/") ? resolvePath(command, baseDir)! : command,
        args: args as string[],
        env: (env as Doc[]).map((e) => ({ name: e.name as string, value: (e.value as string | null | undefined) ?? "" })),
        installHint: str(body, "installHint", `${owner} exec`),
        interactiveMode: str(body, "interactiveMode", `${owner} exec`),
        provideClusterInfo: body.provideClusterInfo === true,
    };
}

/**
 * Reads the kubeconfig and selects the context.
 *
 * @param context - the context to use; default the kubeconfig's current-context.
 * @param baseDir - the kubeconfig file's directory (for an inline kubeconfig, the project directory).
 * @throws Error naming what is missing or malformed (never quoting a credential).
 */
export function readKubeconfig(text: string, context: string | undefined, baseDir: string): KubeContext {
    // parseDocument, not parse with logLevel "silent", which would hand back what it made of a broken text.
    const parsed = parseDocument(text);
    const error = parsed.errors[0];
    if (error) {
        const pos = error.linePos?.[0];
        throw new Error(`the kubeconfig is not valid YAML${pos ? ` (line ${pos.line}, column ${pos.col})` : ""}`);
    }
    let doc: unknown;
    try {
        doc = parsed.toJS({ maxAliasCount: 100 });
    } catch {
        throw new Error("the kubeconfig's YAML aliases expand too far (more than 100)");
    }
    if (!isMap(doc)) throw new Error("the kubeconfig is not a mapping of settings (apiVersion, clusters, users, contexts)");
    const contexts = named(doc.contexts, "context");
    const chosen = context ?? (typeof doc["current-context"] === "string" && doc["current-context"] !== "" ? doc["current-context"] : undefined);
    if (!chosen) throw new Error(`the kubeconfig has no current-context; name one with --context (it has: ${contexts.map((c) => c.name).join(", ") || "none"})`);
    const ctx = contexts.find((c) => c.name === chosen);
    if (!ctx) throw new Error(`the kubeconfig has no context "${chosen}" (it has: ${contexts.map((c) => c.name).join(", ") || "none"})`);
    const clusterName = ctx.body.cluster;
    const clusterEntry = named(doc.clusters, "cluster").find((c) => c.name === clusterName);
    const server = clusterEntry ? str(clusterEntry.body, "server", `cluster "${clusterEntry.name}"`) : undefined;
    if (!clusterEntry || !server) throw new Error(`the kubeconfig's context "${chosen}" names no cluster with a server address`);
    const c = clusterEntry.body;
    const owner = `cluster "${clusterEntry.name}"`;
    const cluster: KubeCluster = {
        name: clusterEntry.name,
        server: server.replace(/\/+$/, ""),
        caData: str(c, "certificate-authority-data", owner),
        caFile: resolvePath(str(c, "certificate-authority", owner), baseDir),
        skipTLSVerify: c["insecure-skip-tls-verify"] === true,
        tlsServerName: str(c, "tls-server-name", owner),
        proxyUrl: str(c, "proxy-url", owner),
    };
    const userName = ctx.body.user;
    let user: KubeUser | null = null;
    if (typeof userName === "string" && userName !== "") {
        const entry = named(doc.users, "user").find((u) => u.name === userName);
        if (!entry) throw new Error(`the kubeconfig's context "${chosen}" names user "${userName}", which it does not define`);
        const u = entry.body;
        const who = `user "${entry.name}"`;
        const provider = u["auth-provider"];
        user = {
            name: entry.name,
            token: str(u, "token", who),
            tokenFile: resolvePath(str(u, "tokenFile", who) ?? str(u, "token-file", who), baseDir),
            username: str(u, "username", who),
            password: str(u, "password", who),
            certData: str(u, "client-certificate-data", who),
            certFile: resolvePath(str(u, "client-certificate", who), baseDir),
            keyData: str(u, "client-key-data", who),
            keyFile: resolvePath(str(u, "client-key", who), baseDir),
            exec: execConfig(u.exec, who, baseDir),
            authProvider: isMap(provider) && typeof provider.name === "string" ? { name: provider.name, config: isMap(provider.config) ? (Object.fromEntries(Object.entries(provider.config).map(([k, v]) => [k, String(v)])) as Record<string, string>) : undefined } : undefined,
            impersonate: str(u, "as", who),
        };
    }
    return { name: chosen, cluster, user, baseDir };
}
